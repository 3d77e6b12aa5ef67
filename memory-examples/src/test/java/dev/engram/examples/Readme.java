/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.examples;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The fenced code blocks of the repository's {@code README.md}, each with the directive in the HTML comment
 * right above it ({@code <!-- readme: … -->}), if any:
 *
 * <ul>
 *   <li>none: a Java block compiles as shown (imports first, then statements, which run as one method);
 *   <li>{@code with TYPE NAME, …}: the same, with those variables given (a block that continues another);
 *   <li>{@code run; check: EXPRESSION}: compiles, runs, and the expression over its variables holds;
 *   <li>{@code fragment (WHY)}: not compiled, for the reason given;
 *   <li>{@code file PATH}: equals that file of the repository (without its licence header), which the build
 *       compiles and runs elsewhere;
 *   <li>{@code newcomer PATH}: a file of the runnable app, written to PATH of a fresh project by the newcomer
 *       integration test.
 * </ul>
 */
final class Readme {
  private static final Pattern DIRECTIVE = Pattern.compile("<!--\\s*readme:\\s*(.*?)\\s*-->");
  static final String HEADER = "/*\n * Copyright 2026 The Engram developers\n * SPDX-License-Identifier: Apache-2.0\n */\n";

  /**
   * One fenced block.
   *
   * @param line the 1-based line of its opening fence
   * @param language the fence's info string, e.g. {@code java}
   * @param directive the directive above it, or null
   * @param code the block's text, each line ending in a line break
   */
  record Block(int line, String language, @Nullable String directive, String code) {
    boolean directed(String verb) {
      return directive != null && (directive.equals(verb) || directive.startsWith(verb + " ")
          || directive.startsWith(verb + ";"));
    }

    /** What follows the directive's verb. */
    String argument(String verb) {
      return directive == null ? "" : directive.substring(verb.length()).strip();
    }
  }

  private Readme() {}

  /** The repository root, from the system property the build sets (the reactor's top directory). */
  static Path root() {
    String dir = System.getProperty("engram.root");
    if (dir == null) {
      throw new AssertionError("system property engram.root (the repository root) is not set");
    }
    return Path.of(dir);
  }

  static List<Block> blocks() throws IOException {
    return blocks(Files.readString(root().resolve("README.md"), StandardCharsets.UTF_8));
  }

  static List<Block> blocks(String markdown) {
    List<String> lines = markdown.lines().toList();
    List<Block> out = new ArrayList<>();
    String directive = null;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      Matcher m = DIRECTIVE.matcher(line.strip());
      if (m.matches()) {
        directive = m.group(1);
        continue;
      }
      if (line.startsWith("```") && line.length() > 3) {
        StringBuilder code = new StringBuilder();
        int start = i + 1;
        for (i++; i < lines.size() && !lines.get(i).equals("```"); i++) {
          code.append(lines.get(i)).append('\n');
        }
        out.add(new Block(start, line.substring(3).strip(), directive, code.toString()));
        directive = null;
      } else if (!line.isBlank()) {
        directive = null;
      }
    }
    return out;
  }

  /** The README block that is written to {@code path} of the newcomer's project. */
  static Block newcomerFile(String path) throws IOException {
    return blocks().stream().filter(b -> b.directed("newcomer") && b.argument("newcomer").equals(path)).findFirst()
        .orElseThrow(() -> new AssertionError("README.md has no block marked <!-- readme: newcomer " + path + " -->"));
  }
}
