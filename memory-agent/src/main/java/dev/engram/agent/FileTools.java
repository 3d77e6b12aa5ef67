/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.agent;

import static dev.engram.agent.ArgumentSchema.array;
import static dev.engram.agent.ArgumentSchema.integer;
import static dev.engram.agent.ArgumentSchema.object;
import static dev.engram.agent.ArgumentSchema.properties;
import static dev.engram.agent.ArgumentSchema.string;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** The tool specs of {@link MemoryFiles} and the dispatcher that runs the model's JSON through it. */
final class FileTools {
  static final String VIEW = "memory_file_view";
  static final String CREATE = "memory_file_create";
  static final String STR_REPLACE = "memory_file_str_replace";
  static final String INSERT = "memory_file_insert";
  static final String DELETE = "memory_file_delete";
  static final String RENAME = "memory_file_rename";
  static final int MAX_PATH_CHARS = 1024;
  static final int MAX_LINE = 1_000_000;
  private static final String HASH = "expected_content_hash";

  private record Tool(String command, ToolSpec spec, ArgumentSchema schema, boolean writes) {}

  private static final Map<String, Tool> TOOLS;
  private static final Map<String, Tool> BY_COMMAND;

  static {
    Map<String, Tool> all = new LinkedHashMap<>();
    ObjectNode path = string("A path below /memories, e.g. /memories/notes.md.", 1, MAX_PATH_CHARS);
    ObjectNode hash = string("Optional: the file's content hash as last seen; the edit is refused if the file "
        + "changed since.", 64, 64);
    ObjectNode range = array("Optional: [first, last] line to show, 1-based; last -1 means the end of the file.",
        integer("A line number, or -1 for the end.", -1, MAX_LINE), 2, 2);
    range.remove("uniqueItems");
    add(all, "view", VIEW, false, ToolHints.reads("View memory files"), """
        Show a memory directory (files and directories two levels deep, with sizes) or a memory file (its lines \
        numbered). Start with /memories to see what is remembered.""",
        object(properties("path", path, "view_range", range), "path"));
    // a second create of the same file is refused: nothing more changes
    add(all, "create", CREATE, true, ToolHints.writes("Create a memory file", false, true), """
        Create a new memory file with the given text. Fails if the file exists. A file holds at most memory's \
        content limit (8,192 UTF-8 bytes unless configured otherwise); its text is stored normalized (no blank \
        lines, lines trimmed).""",
        object(properties("path", path, "file_text", string("The file's text.", 0, Tools.MAX_ARGUMENT_CHARS)),
            "path", "file_text"));
    // the replacement may contain old_str, so a repeated call can edit again
    add(all, "str_replace", STR_REPLACE, true, ToolHints.writes("Edit a memory file", true, false), """
        Replace text in a memory file. old_str must occur exactly once in the file, as shown by view; the result \
        shows the edited lines.""",
        object(properties("path", path,
            "old_str", string("Text that occurs exactly once in the file.", 1, Tools.MAX_ARGUMENT_CHARS),
            "new_str", string("The replacement (may be empty).", 0, Tools.MAX_ARGUMENT_CHARS),
            HASH, hash), "path", "old_str", "new_str"));
    add(all, "insert", INSERT, true, ToolHints.writes("Insert into a memory file", false, false), """
        Insert text into a memory file after line insert_line (0 puts it before the first line; the file's line \
        count puts it at the end).""",
        object(properties("path", path,
            "insert_line", integer("The line after which the text goes, 0 to the number of lines.", 0, MAX_LINE),
            "insert_text", string("The text to insert.", 1, Tools.MAX_ARGUMENT_CHARS),
            HASH, hash), "path", "insert_line", "insert_text"));
    add(all, "delete", DELETE, true, ToolHints.writes("Delete a memory file", true, true), """
        Delete a memory file, or a directory with everything in it. /memories itself cannot be deleted. Deleted \
        files are kept in memory's history.""",
        object(properties("path", path, HASH, hash), "path"));
    add(all, "rename", RENAME, true, ToolHints.writes("Rename a memory file", true, true), """
        Rename or move a memory file or directory. Fails if the destination exists.""",
        object(properties("old_path", string("The file or directory to move.", 1, MAX_PATH_CHARS),
            "new_path", string("Where it goes; nothing may be there yet.", 1, MAX_PATH_CHARS),
            HASH, hash), "old_path", "new_path"));
    TOOLS = java.util.Collections.unmodifiableMap(all);
    Map<String, Tool> byCommand = new LinkedHashMap<>();
    all.values().forEach(t -> byCommand.put(t.command, t));
    BY_COMMAND = java.util.Collections.unmodifiableMap(byCommand);
  }

  private FileTools() {}

  private static void add(Map<String, Tool> all, String command, String name, boolean writes, ToolHints hints,
      String description, ObjectNode schema) {
    all.put(name, new Tool(command, new ToolSpec(name, description, schema.toString(), hints), ArgumentSchema.of(schema),
        writes));
  }

  static List<ToolSpec> specs(MemoryMode mode) {
    List<ToolSpec> out = new ArrayList<>();
    for (Tool t : TOOLS.values()) {
      if (!t.writes || mode == MemoryMode.READ_WRITE) {
        out.add(t.spec);
      }
    }
    return List.copyOf(out);
  }

  static FileResult call(MemoryFiles files, String name, String jsonArgs) {
    Tool tool = TOOLS.get(name);
    if (tool == null) {
      return invalid("Error: unknown tool '" + Tools.clip(name, Tools.MAX_ECHO_CHARS) + "'; available: "
          + String.join(", ", specs(files.mode()).stream().map(ToolSpec::name).toList()));
    }
    JsonNode args = parse(jsonArgs);
    if (args == null) {
      return invalid("Error: the arguments are not a JSON object; schema: " + tool.spec.inputSchema());
    }
    return run(files, tool, args);
  }

  static FileResult command(MemoryFiles files, String jsonInput) {
    JsonNode input = parse(jsonInput);
    if (input == null || !input.isObject()) {
      return invalid("Error: the tool input is not a JSON object with a command");
    }
    JsonNode command = input.get("command");
    Tool tool = command != null && command.isTextual() ? BY_COMMAND.get(command.textValue()) : null;
    if (tool == null) {
      return invalid("Error: Unknown command " + (command == null ? "(none given)"
          : "'" + Tools.clip(command.asText(), Tools.MAX_ECHO_CHARS) + "'")
          + "; the commands are " + String.join(", ", BY_COMMAND.keySet()));
    }
    ObjectNode args = ((ObjectNode) input).deepCopy();
    args.remove("command");
    return run(files, tool, args);
  }

  private static @Nullable JsonNode parse(String json) {
    if (json.length() > Tools.MAX_ARGUMENT_CHARS || json.isBlank()) {
      return null;
    }
    try {
      return Tools.JSON.readTree(json);
    } catch (JsonProcessingException e) {
      return null;
    }
  }

  private static FileResult run(MemoryFiles files, Tool tool, JsonNode args) {
    String problem = tool.schema.validate(args);
    if (problem != null) {
      return invalid("Error: " + tool.command + ": " + problem);
    }
    FileEditOptions options = FileEditOptions.defaults();
    if (args.has(HASH)) {
      try {
        options = FileEditOptions.builder().expectedContentHash(args.get(HASH).textValue()).build();
      } catch (dev.engram.InvalidInputException e) {
        return invalid("Error: " + tool.command + ": " + HASH + " must be 64 lowercase hex digits (SHA-256)");
      }
    }
    return switch (tool.command) {
      case "view" -> args.has("view_range")
          ? files.view(text(args, "path"),
              ViewRange.of(args.get("view_range").get(0).longValue(), args.get("view_range").get(1).longValue()))
          : files.view(text(args, "path"));
      case "create" -> files.create(text(args, "path"), text(args, "file_text"));
      case "str_replace" -> files.strReplace(text(args, "path"), text(args, "old_str"), text(args, "new_str"), options);
      case "insert" -> files.insert(text(args, "path"), args.get("insert_line").longValue(), text(args, "insert_text"),
          options);
      case "delete" -> files.delete(text(args, "path"), options);
      case "rename" -> files.rename(text(args, "old_path"), text(args, "new_path"), options);
      default -> throw new IllegalStateException(tool.command);
    };
  }

  private static String text(JsonNode args, String field) {
    return args.get(field).textValue();
  }

  private static FileResult invalid(String text) {
    return FileResult.failed(FileError.INVALID_ARGUMENT, text);
  }
}
