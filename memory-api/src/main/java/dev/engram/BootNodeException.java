/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/**
 * A boot node ({@code core://agent}, {@code core://soul}, {@code preferences://user} or
 * {@code core://agent/<runtime>}) was asked to be deleted, retired or moved, or a model-made change
 * (an extraction candidate, a curation op) would have created or changed one. Boot nodes keep their
 * addresses, and only a trusted caller's own edit changes their content.
 */
public class BootNodeException extends EntryStateException {
  private static final long serialVersionUID = 1L;
  /** The boot node's path. */
  private final String node;

  /**
   * @param node the boot node's path
   * @param operation what was refused, e.g. "retired"
   */
  public BootNodeException(String node, String operation) {
    this(node, "boot node " + node + " cannot be " + operation + "; boot nodes keep their fixed address and can only be"
        + " edited", true);
  }

  /** {@code composed}: the message is already the whole message (it tells this constructor from the public one). */
  private BootNodeException(String node, String message, boolean composed) {
    super(message);
    this.node = node;
  }

  /**
   * The refusal of a change the model proposed.
   *
   * @param node the boot node's path
   * @param step the step whose model output proposed the change, e.g. "extraction"
   * @return the exception naming the node and the step
   */
  public static BootNodeException modelMade(String node, String step) {
    return new BootNodeException(node, "boot node " + node + " cannot be created or changed by " + step
        + " (model output); only a trusted caller's own edit changes a boot node", true);
  }

  /** @return the boot node's path */
  public String node() {
    return node;
  }
}
