/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/**
 * A boot node ({@code core://agent}, {@code core://soul}, {@code preferences://user} or
 * {@code core://agent/<client_type>}) was asked to be deleted, retired or moved. Boot nodes keep their
 * addresses; edit their content instead.
 */
public class BootNodeException extends EntryStateException {
  private static final long serialVersionUID = 1L;
  private final String node;

  /**
   * @param node the boot node's path
   * @param operation what was refused, e.g. "retired"
   */
  public BootNodeException(String node, String operation) {
    super("boot node " + node + " cannot be " + operation + "; boot nodes keep their fixed address and can only be"
        + " edited");
    this.node = node;
  }

  /** @return the boot node's path */
  public String node() {
    return node;
  }
}
