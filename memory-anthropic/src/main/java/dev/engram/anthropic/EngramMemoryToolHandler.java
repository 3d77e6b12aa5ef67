/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.anthropic;

import com.anthropic.helpers.BetaMemoryToolHandler;
import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.agent.FileResult;
import dev.engram.agent.MemoryFiles;
import dev.engram.agent.ViewRange;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Claude's client-side memory tool ({@code {"type": "memory_20250818", "name": "memory"}}) backed by
 * Engram: the SDK's tool runner hands each {@code memory} tool use to this handler, which runs it on a
 * {@link MemoryFiles} view, so every edit is a versioned, attributed Engram change under the grants
 * trusted code bound (the model names paths below {@code /memories} only, never a namespace).
 *
 * <pre>{@code
 * BetaMemoryToolHandler memory = EngramMemoryToolHandler.of(engram, Grants.template("app/user/{id}").grants(userId));
 * BetaToolRunner runner = client.beta().messages().toolRunner(ToolRunnerCreateParams.builder()
 *     .betaMemoryToolHandler(memory)
 *     .initialMessageParams(MessageCreateParams.builder()
 *         .model(model).maxTokens(1024)
 *         .addTool(BetaMemoryTool20250818.builder().build())
 *         .addUserMessage("Remember that I prefer metric units.")
 *         .build())
 *     .build());
 * }</pre>
 *
 * <p>Each method returns the command's result text exactly as the memory-tool protocol words it, a
 * failure included ({@code "Error: The path /memories/x does not exist"}, {@code "No replacement was
 * performed, ..."}): results and errors are strings, and nothing a failed command names is changed. No
 * method throws for anything the model sends. Bind one handler per request or user; it is immutable and
 * thread-safe.
 */
public final class EngramMemoryToolHandler implements BetaMemoryToolHandler {
  private final MemoryFiles files;

  private EngramMemoryToolHandler(MemoryFiles files) {
    this.files = files;
  }

  /**
   * A handler over a file view trusted code configured (its scope, mode and actor).
   *
   * @param files the view
   * @return the handler
   * @throws NullPointerException if {@code files} is null
   */
  public static EngramMemoryToolHandler of(MemoryFiles files) {
    return new EngramMemoryToolHandler(Objects.requireNonNull(files, "files"));
  }

  /**
   * A handler over the files of the first grant's scope, read-write.
   *
   * @param engram the engine
   * @param grants minted by trusted code
   * @return the handler
   * @throws NullPointerException if an argument is null
   */
  public static EngramMemoryToolHandler of(Engram engram, Grants grants) {
    return of(MemoryFiles.bind(engram, grants));
  }

  /**
   * The view the handler runs the commands on.
   *
   * @return the view
   */
  public MemoryFiles files() {
    return files;
  }

  /**
   * {@code view}: a listing of a directory, or a file's numbered lines.
   *
   * @param path {@code /memories} or a path below it
   * @param viewRange optional {@code [first, last]}, 1-based, {@code -1} for the end
   * @return the result or error text
   */
  @Override
  public String view(String path, Optional<List<Long>> viewRange) {
    Optional<List<Long>> range = viewRange == null ? Optional.empty() : viewRange;
    if (range.isEmpty()) {
      return text(files.view(orEmpty(path)));
    }
    List<Long> r = range.get();
    if (r.size() != 2 || r.get(0) == null || r.get(1) == null) {
      return "Error: Invalid `view_range`: give two line numbers [first, last], last -1 for the end of the file";
    }
    return text(files.view(orEmpty(path), ViewRange.of(r.get(0), r.get(1))));
  }

  /**
   * {@code create}: a new file.
   *
   * @param path a path below {@code /memories} where nothing is yet
   * @param fileText the file's text
   * @return the result or error text
   */
  @Override
  public String create(String path, String fileText) {
    return text(files.create(orEmpty(path), orEmpty(fileText)));
  }

  /**
   * {@code str_replace}: replaces the one occurrence of {@code oldStr}.
   *
   * @param path a file below {@code /memories}
   * @param oldStr text that occurs exactly once
   * @param newStr its replacement
   * @return the result (with a snippet of the edit) or error text
   */
  @Override
  public String strReplace(String path, String oldStr, String newStr) {
    return text(files.strReplace(orEmpty(path), orEmpty(oldStr), orEmpty(newStr)));
  }

  /**
   * {@code insert}: text after line {@code insertLine} (0 before the first).
   *
   * @param path a file below {@code /memories}
   * @param insertLine 0 to the file's line count
   * @param insertText the text
   * @return the result or error text
   */
  @Override
  public String insert(String path, long insertLine, String insertText) {
    return text(files.insert(orEmpty(path), insertLine, orEmpty(insertText)));
  }

  /**
   * {@code delete}: a file, or a directory with everything below it (never {@code /memories}).
   *
   * @param path a file or directory below {@code /memories}
   * @return the result or error text
   */
  @Override
  public String delete(String path) {
    return text(files.delete(orEmpty(path)));
  }

  /**
   * {@code rename}: moves a file or directory; the destination must not exist.
   *
   * @param oldPath the file or directory
   * @param newPath where it goes
   * @return the result or error text
   */
  @Override
  public String rename(String oldPath, String newPath) {
    return text(files.rename(orEmpty(oldPath), orEmpty(newPath)));
  }

  private static String text(FileResult result) {
    return result.text();
  }

  /** The SDK never passes null for a required field; a hand-made call that does gets the empty-path error. */
  private static String orEmpty(String s) {
    return s == null ? "" : s;
  }

  @Override
  public String toString() {
    return "EngramMemoryToolHandler[" + files + "]";
  }
}
