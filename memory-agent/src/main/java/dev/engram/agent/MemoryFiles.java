/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.agent;

import dev.engram.ChangeOptions;
import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.ListOptions;
import dev.engram.MemoryEntry;
import dev.engram.MemoryException;
import dev.engram.PathConflictException;
import dev.engram.RevisionConflictException;
import dev.engram.WriteOptions;
import dev.engram.WritePolicy;
import dev.engram.WriteResult;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The memory-tool command set over one scope: a {@code /memories/...} file view whose files are the
 * scope's active entries under the path domain {@code memories://} ({@code /memories/notes/db.md} is
 * the entry at {@code memories://notes/db.md}), with the six commands of the memory-tool protocol —
 * {@code view}, {@code create}, {@code str_replace}, {@code insert}, {@code delete}, {@code rename} —
 * and their result and error texts. Framework-neutral: the Anthropic handler, the MCP tools and any
 * other adapter call these methods (or {@link #call}/{@link #command} with the model's JSON).
 *
 * <pre>{@code
 * MemoryFiles files = MemoryFiles.bind(engram, Grants.template("app/user/{id}").grants(userId));
 * files.create("/memories/preferences.md", "Prefers metric units.\nWorks in CET.");
 * files.view("/memories").text();   // "Here're the files and directories up to 2 levels deep in /memories, ..."
 * }</pre>
 *
 * <p>Trusted code binds the view to grants and, optionally, a scope; the model only ever names paths
 * below {@code /memories} and never a namespace. A path that leaves {@code /memories} ({@code ..},
 * {@code .}, percent-encoding, a backslash, any other root) is refused before anything is read.
 *
 * <p>Every change is an ordinary engine change, so history, rollback, erasure and export see it as
 * usual: {@code create}, {@code str_replace} and {@code insert} are path writes (a new version of the
 * file's entry), {@code rename} is a move, {@code delete} retires the file's entries (kept in history;
 * trusted code erases with {@link Engram#deleteEntry}). A directory is the set of files below it: it
 * exists while a file does, and renaming or deleting one changes each file below it with a commit of
 * its own. The view is writable when its scope is one of the granted namespaces and it was not opened
 * with {@link MemoryMode#READ}; otherwise every change is refused with {@link FileError#READ_ONLY}.
 *
 * <p>A file's text is memory content: at most the engine's content limit (8,192 UTF-8 bytes unless the
 * engine was built with another), not empty, and normalized as all content is (no blank lines, lines
 * trimmed, runs of spaces made one). A result says when the stored text differs from the text given,
 * and {@code view} shows the lines as stored, so line numbers and {@code str_replace} always refer to
 * them. Read-modify-write commands run against the scope revision they read, so a concurrent change is
 * never overwritten: such a command is tried again on the new state, at most {@value #MAX_ATTEMPTS}
 * times. Immutable and thread-safe.
 */
public final class MemoryFiles {
  /** How deep a directory listing goes below the listed directory. */
  public static final int LISTING_DEPTH = 2;
  /** The topic every file's entry carries (the reasoner may add more). */
  public static final String TOPIC = "memories";
  /** How often a command that lost a race with another change is run again. */
  public static final int MAX_ATTEMPTS = 3;
  /** Lines shown before and after an edit in the {@code str_replace} snippet. */
  static final int SNIPPET_LINES = 4;
  private static final int ECHO_TEXT_CHARS = 200;
  private static final Logger LOG = LoggerFactory.getLogger(MemoryFiles.class);

  /** The origin history records for the view's edits: they are an agent's. */
  private static final String ORIGIN = "agent";

  private final Engram engram;
  private final Grants grants;
  private final String scope;
  private final @Nullable Grants writeGrants;
  private final String source;

  private MemoryFiles(Engram engram, Grants grants, String scope, @Nullable Grants writeGrants, String source) {
    this.engram = engram;
    this.grants = grants;
    this.scope = scope;
    this.writeGrants = writeGrants;
    this.source = source;
  }

  /**
   * The file view of the first grant's scope, read-write.
   *
   * @param engram the engine
   * @param grants minted by trusted code; the model never sees or chooses them
   * @return the view
   * @throws NullPointerException if an argument is null
   */
  public static MemoryFiles bind(Engram engram, Grants grants) {
    return bind(engram, grants, MemoryFilesOptions.defaults());
  }

  /**
   * The file view of the scope the options name (default the first grant's).
   *
   * @param engram the engine
   * @param grants minted by trusted code; the model never sees or chooses them
   * @param options the scope, mode and actor
   * @return the view
   * @throws InvalidInputException if the scope is not visible with {@code grants}
   * @throws NullPointerException if an argument is null
   */
  public static MemoryFiles bind(Engram engram, Grants grants, MemoryFilesOptions options) {
    Objects.requireNonNull(engram, "engram");
    Objects.requireNonNull(grants, "grants");
    Objects.requireNonNull(options, "options");
    String scope = options.scope() != null ? options.scope() : grants.namespaces().get(0);
    if (!grants.canSee(scope)) {
      throw new InvalidInputException("scope", "'" + scope + "' is not visible with " + grants);
    }
    boolean writable = options.mode() == MemoryMode.READ_WRITE && grants.namespaces().contains(scope);
    return new MemoryFiles(engram, grants, scope, writable ? Grants.of(scope) : null, options.source());
  }

  /**
   * The scope whose files this view shows (for the trusted code that bound it).
   *
   * @return the scope
   */
  public String scope() {
    return scope;
  }

  /**
   * Whether the view changes files: {@link MemoryMode#READ_WRITE} when its scope is a granted namespace
   * and it was not opened for reading.
   *
   * @return the effective mode
   */
  public MemoryMode mode() {
    return writeGrants != null ? MemoryMode.READ_WRITE : MemoryMode.READ;
  }

  /**
   * The entry that holds a file, for trusted code (its {@link Engram#history history}, a
   * {@link Engram#rollback rollback}, an erasure).
   *
   * @param path a file path below {@code /memories}
   * @return the file's current version, or empty when there is no such file
   * @throws InvalidInputException if the path is not a path below {@code /memories}
   */
  public Optional<MemoryEntry> entry(String path) {
    Objects.requireNonNull(path, "path");
    MemoryPath p;
    try {
      p = MemoryPath.parse(path);
    } catch (MemoryPath.Refused e) {
      throw new InvalidInputException("path", e.getMessage());
    }
    return Optional.ofNullable(Tree.read(this).file(p));
  }

  // ---- the six commands ---------------------------------------------------------------------

  /**
   * {@code view}: a directory as a listing {@value #LISTING_DEPTH} levels deep with sizes (hidden items
   * and {@code node_modules} left out), or a file with its lines numbered (6 wide, right-aligned, a tab,
   * then the line).
   *
   * @param path {@code /memories} or a path below it
   * @return the listing or the numbered file, or an error
   * @throws NullPointerException if an argument is null
   */
  public FileResult view(String path) {
    Objects.requireNonNull(path, "path");
    return run("view", () -> viewAt(path, null));
  }

  /**
   * {@code view} of some lines of a file.
   *
   * @param path a file below {@code /memories}
   * @param range the lines, 1-based, {@code end} {@value ViewRange#TO_END} for the last
   * @return the numbered lines, or an error (a range outside the file, a directory)
   * @throws NullPointerException if an argument is null
   */
  public FileResult view(String path, ViewRange range) {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(range, "range");
    return run("view", () -> viewAt(path, range));
  }

  /**
   * {@code create}: a new file with the text.
   *
   * @param path a path below {@code /memories} where no file or directory is
   * @param fileText the text
   * @return {@code File created successfully at: <path>}, or an error (the file exists, a read-only view,
   *     text over memory's limits)
   * @throws NullPointerException if an argument is null
   */
  public FileResult create(String path, String fileText) {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(fileText, "fileText");
    return run("create", () -> createAt(path, fileText));
  }

  /**
   * {@code str_replace} with default options.
   *
   * @param path a file below {@code /memories}
   * @param oldStr text that occurs exactly once in the file
   * @param newStr what replaces it
   * @return {@code The memory file has been edited.} with a numbered snippet around the edit, or an
   *     error (no occurrence, several occurrences with their line numbers)
   * @throws NullPointerException if an argument is null
   */
  public FileResult strReplace(String path, String oldStr, String newStr) {
    return strReplace(path, oldStr, newStr, FileEditOptions.defaults());
  }

  /**
   * {@code str_replace}: replaces the one occurrence of {@code oldStr} in the file.
   *
   * @param path a file below {@code /memories}
   * @param oldStr text that occurs exactly once in the file
   * @param newStr what replaces it (may be empty)
   * @param options an expected content hash
   * @return {@code The memory file has been edited.} with a numbered snippet around the edit, or an
   *     error (no occurrence, several occurrences with their line numbers, a stale hash)
   * @throws NullPointerException if an argument is null
   */
  public FileResult strReplace(String path, String oldStr, String newStr, FileEditOptions options) {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(oldStr, "oldStr");
    Objects.requireNonNull(newStr, "newStr");
    Objects.requireNonNull(options, "options");
    return run("str_replace", () -> strReplaceAt(path, oldStr, newStr, options));
  }

  /**
   * {@code insert} with default options.
   *
   * @param path a file below {@code /memories}
   * @param insertLine the line after which the text goes, 0 (before the first) to the file's line count
   * @param insertText the text
   * @return {@code The file <path> has been edited.}, or an error (a line outside [0, n])
   * @throws NullPointerException if an argument is null
   */
  public FileResult insert(String path, long insertLine, String insertText) {
    return insert(path, insertLine, insertText, FileEditOptions.defaults());
  }

  /**
   * {@code insert}: the text's lines go after line {@code insertLine}.
   *
   * @param path a file below {@code /memories}
   * @param insertLine the line after which the text goes, 0 (before the first) to the file's line count
   * @param insertText the text
   * @param options an expected content hash
   * @return {@code The file <path> has been edited.}, or an error (a line outside [0, n], a stale hash)
   * @throws NullPointerException if an argument is null
   */
  public FileResult insert(String path, long insertLine, String insertText, FileEditOptions options) {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(insertText, "insertText");
    Objects.requireNonNull(options, "options");
    return run("insert", () -> insertAt(path, insertLine, insertText, options));
  }

  /**
   * {@code delete} with default options.
   *
   * @param path a file or a directory below {@code /memories} (never {@code /memories} itself)
   * @return {@code Successfully deleted <path>}, or an error
   * @throws NullPointerException if an argument is null
   */
  public FileResult delete(String path) {
    return delete(path, FileEditOptions.defaults());
  }

  /**
   * {@code delete}: retires the file, or every file below the directory (kept in history).
   *
   * @param path a file or a directory below {@code /memories} (never {@code /memories} itself)
   * @param options an expected content hash (files only)
   * @return {@code Successfully deleted <path>}, or an error
   * @throws NullPointerException if an argument is null
   */
  public FileResult delete(String path, FileEditOptions options) {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(options, "options");
    return run("delete", () -> deleteAt(path, options));
  }

  /**
   * {@code rename} with default options.
   *
   * @param oldPath a file or directory below {@code /memories}
   * @param newPath where nothing is yet
   * @return {@code Successfully renamed <old> to <new>}, or an error (the destination exists)
   * @throws NullPointerException if an argument is null
   */
  public FileResult rename(String oldPath, String newPath) {
    return rename(oldPath, newPath, FileEditOptions.defaults());
  }

  /**
   * {@code rename}: moves a file, or every file below a directory, to the new path.
   *
   * @param oldPath a file or directory below {@code /memories}
   * @param newPath where nothing is yet
   * @param options an expected content hash (files only)
   * @return {@code Successfully renamed <old> to <new>}, or an error (the destination exists)
   * @throws NullPointerException if an argument is null
   */
  public FileResult rename(String oldPath, String newPath, FileEditOptions options) {
    Objects.requireNonNull(oldPath, "oldPath");
    Objects.requireNonNull(newPath, "newPath");
    Objects.requireNonNull(options, "options");
    return run("rename", () -> renameAt(oldPath, newPath, options));
  }

  // ---- JSON surface -------------------------------------------------------------------------

  /**
   * The six commands as tools ({@code memory_file_view}, {@code memory_file_create},
   * {@code memory_file_str_replace}, {@code memory_file_insert}, {@code memory_file_delete},
   * {@code memory_file_rename}) with strict schemas; a read-only view lists {@code memory_file_view} only.
   *
   * @return the specs, in a stable order
   */
  public List<ToolSpec> tools() {
    return FileTools.specs(mode());
  }

  /**
   * The tools a view in {@code mode} offers, for a framework that registers tools before it binds a view
   * per request ({@link #tools()} of a view with that mode).
   *
   * @param mode {@link MemoryMode#READ}: {@code memory_file_view} only; {@link MemoryMode#READ_WRITE}: all six
   * @return the specs, in a stable order
   * @throws NullPointerException if {@code mode} is null
   */
  public static List<ToolSpec> toolSpecs(MemoryMode mode) {
    return FileTools.specs(Objects.requireNonNull(mode, "mode"));
  }

  /**
   * Runs one of {@link #tools()} with the model's JSON arguments, validated against its schema first.
   *
   * @param name the tool name
   * @param jsonArgs the arguments (a JSON object)
   * @return the command's result; a bad call is an {@link FileError#INVALID_ARGUMENT} result
   * @throws NullPointerException if an argument is null
   */
  public FileResult call(String name, String jsonArgs) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(jsonArgs, "jsonArgs");
    return FileTools.call(this, name, jsonArgs);
  }

  /**
   * Runs the input of one memory-tool use as the model sends it: {@code {"command": "view", "path":
   * "/memories", ...}}, the command's fields validated as for {@link #call}.
   *
   * @param jsonInput the tool input (a JSON object with {@code command})
   * @return the command's result; a bad input is an {@link FileError#INVALID_ARGUMENT} result
   * @throws NullPointerException if {@code jsonInput} is null
   */
  public FileResult command(String jsonInput) {
    Objects.requireNonNull(jsonInput, "jsonInput");
    return FileTools.command(this, jsonInput);
  }

  // ---- implementation -----------------------------------------------------------------------

  /** The command's error text when a precondition fails; carries the result to return. */
  private static final class Failed extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient FileResult result;

    Failed(FileError error, String text) {
      super(text, null, false, false);
      this.result = FileResult.failed(error, text);
    }
  }

  private FileResult run(String command, Supplier<FileResult> body) {
    for (int attempt = 1; ; attempt++) {
      try {
        return body.get();
      } catch (Failed f) {
        return f.result;
      } catch (RevisionConflictException e) {
        if (attempt >= MAX_ATTEMPTS) {
          return FileResult.failed(FileError.CONFLICT, "Error: memory kept changing while " + command + " ran; "
              + "nothing was changed. View the file and try again");
        }
      } catch (MemoryException e) {
        return fromException(command, e);
      } catch (RuntimeException e) {
        LOG.warn("memory file command {} failed: {}", command, e.getClass().getName());
        return FileResult.failed(FileError.UNAVAILABLE, "Error: " + command + " failed inside memory; nothing was "
            + "changed. Try again later");
      }
    }
  }

  private static FileResult fromException(String command, MemoryException e) {
    if (e instanceof InvalidInputException iie && "content".equals(iie.field())) {
      String msg = Objects.requireNonNull(e.getMessage());
      if (msg.contains("empty")) {
        return FileResult.failed(FileError.INVALID_ARGUMENT, "Error: The file text would be empty; a memory file "
            + "holds at least one non-blank line. To remove the file, use delete");
      }
      return FileResult.failed(FileError.INVALID_ARGUMENT, "Error: The file text was refused by memory's limits ("
          + Tools.clip(msg, 300) + "); nothing was changed. Keep each file within the limit, or split it into "
          + "several files");
    }
    if (e instanceof PathConflictException) {
      return FileResult.failed(FileError.ALREADY_EXISTS, "Error: The destination already holds a memory; nothing "
          + "was changed");
    }
    switch (e.code()) {
      case SCOPE_VIOLATION:
      case INVALID_GRANT:
        return readOnly(command);
      case ENTRY_STATE:
      case REVISION_CONFLICT:
      case NOT_FOUND:
        return FileResult.failed(FileError.CONFLICT, "Error: the file changed while " + command + " ran; nothing "
            + "was changed. View it again and retry");
      case INVALID_INPUT:
        return FileResult.failed(FileError.INVALID_ARGUMENT, "Error: " + command + ": " + Tools.clip(e.getMessage(),
            300));
      case REASONER_FAILED:
      case INVALID_MODEL_OUTPUT:
        LOG.warn("memory file command {}: the reasoner could not file the text ({})", command, e.code());
        return FileResult.failed(FileError.UNAVAILABLE, "Error: memory could not file this text; nothing was "
            + "changed. Try again later");
      default:
        LOG.warn("memory file command {} failed in the store: {}", command, e.code());
        return FileResult.failed(FileError.UNAVAILABLE, "Error: memory is unavailable right now; nothing was "
            + "changed. Try again later");
    }
  }

  private static FileResult readOnly(String command) {
    return FileResult.failed(FileError.READ_ONLY, "Error: These memories are read-only here; " + command
        + " is refused and nothing was changed");
  }

  private void requireWritable(String command) {
    if (writeGrants == null) {
      throw new Failed(FileError.READ_ONLY, readOnly(command).text());
    }
  }

  private static MemoryPath path(String raw) {
    Objects.requireNonNull(raw, "path");
    try {
      return MemoryPath.parse(raw);
    } catch (MemoryPath.Refused e) {
      throw new Failed(FileError.INVALID_PATH, Objects.requireNonNull(e.getMessage()));
    }
  }

  private FileResult viewAt(String raw, @Nullable ViewRange range) {
    MemoryPath p = path(raw);
    Tree tree = Tree.read(this);
    MemoryEntry file = tree.file(p);
    if (file == null) {
      if (!tree.isDirectory(p)) {
        throw new Failed(FileError.NOT_FOUND, "The path " + p.shown() + " does not exist. Please provide a valid "
            + "path.");
      }
      if (range != null) {
        throw new Failed(FileError.WRONG_KIND, "Error: The path " + p.shown() + " is a directory; view_range is "
            + "only for files");
      }
      return FileResult.ok(tree.listing(p), null);
    }
    List<String> lines = lines(file.content());
    long first = 1;
    long last = lines.size();
    if (range != null) {
      String shown = "[" + range.start() + ", " + range.end() + "]";
      if (range.start() < 1 || range.start() > lines.size()) {
        throw new Failed(FileError.INVALID_LINE, "Error: Invalid `view_range` " + shown + ": the first line must be "
            + "within the file's lines [1, " + lines.size() + "]");
      }
      if (range.end() != ViewRange.TO_END && (range.end() < range.start() || range.end() > lines.size())) {
        throw new Failed(FileError.INVALID_LINE, "Error: Invalid `view_range` " + shown + ": the last line must be "
            + "-1 (the end) or within [" + range.start() + ", " + lines.size() + "]");
      }
      first = range.start();
      last = range.end() == ViewRange.TO_END ? lines.size() : range.end();
    }
    StringBuilder out = new StringBuilder("Here's the content of ").append(p.shown()).append(" with line numbers:");
    number(out, lines, (int) first, (int) last);
    return FileResult.ok(out.toString(), file.contentHash());
  }

  private FileResult createAt(String raw, String fileText) {
    MemoryPath p = path(raw);
    requireWritable("create");
    if (p.isRoot()) {
      throw new Failed(FileError.WRONG_KIND, "Error: " + MemoryPath.ROOT + " is the memory directory; create a file "
          + "below it, e.g. " + MemoryPath.ROOT + "/notes.md");
    }
    long revision = engram.revision(grants, scope);
    Tree tree = Tree.read(this);
    if (tree.file(p) != null) {
      throw new Failed(FileError.ALREADY_EXISTS, "Error: File " + p.shown() + " already exists");
    }
    if (tree.isDirectory(p)) {
      throw new Failed(FileError.ALREADY_EXISTS, "Error: " + p.shown() + " already exists as a directory");
    }
    tree.requireNoFileAbove(p);
    WriteResult r = write(p, fileText, revision);
    return FileResult.ok("File created successfully at: " + p.shown() + notes(fileText, r), r.entry().contentHash());
  }

  private FileResult strReplaceAt(String raw, String oldStr, String newStr, FileEditOptions options) {
    MemoryPath p = path(raw);
    requireWritable("str_replace");
    long revision = engram.revision(grants, scope);
    MemoryEntry file = existingFile(Tree.read(this), p, "str_replace", ". Please provide a valid path.");
    checkHash(file, p, options);
    if (oldStr.isEmpty()) {
      throw new Failed(FileError.INVALID_ARGUMENT, "Error: old_str is empty; give text that occurs exactly once in "
          + p.shown());
    }
    String content = file.content();
    List<Integer> at = new ArrayList<>();
    for (int i = content.indexOf(oldStr); i >= 0; i = content.indexOf(oldStr, i + oldStr.length())) {
      at.add(i);
    }
    if (at.isEmpty()) {
      throw new Failed(FileError.NO_MATCH, "No replacement was performed, old_str `" + echoText(oldStr)
          + "` did not appear verbatim in " + p.shown() + ".");
    }
    if (at.size() > 1) {
      TreeSet<Integer> lineNumbers = new TreeSet<>();
      for (int i : at) {
        lineNumbers.add(lineOf(content, i));
      }
      throw new Failed(FileError.MULTIPLE_MATCHES, "No replacement was performed. Multiple occurrences of old_str `"
          + echoText(oldStr) + "` in lines: " + join(lineNumbers) + ". Please ensure it is unique");
    }
    int index = at.get(0);
    String next = content.substring(0, index) + newStr + content.substring(index + oldStr.length());
    WriteResult r = write(p, next, revision);
    List<String> stored = lines(r.entry().content());
    int from = Math.max(1, lineOf(content, index) - SNIPPET_LINES);
    int to = Math.min(stored.size(), lineOf(content, index) + (int) newStr.chars().filter(c -> c == '\n').count()
        + SNIPPET_LINES);
    StringBuilder out = new StringBuilder("The memory file has been edited. Here's a snippet of ").append(p.shown())
        .append(" with line numbers:");
    number(out, stored, Math.min(from, stored.size()), to);
    out.append(notes(next, r));
    return FileResult.ok(out.toString(), r.entry().contentHash());
  }

  private FileResult insertAt(String raw, long insertLine, String insertText, FileEditOptions options) {
    MemoryPath p = path(raw);
    requireWritable("insert");
    long revision = engram.revision(grants, scope);
    MemoryEntry file = existingFile(Tree.read(this), p, "insert", "");
    checkHash(file, p, options);
    List<String> lines = lines(file.content());
    if (insertLine < 0 || insertLine > lines.size()) {
      throw new Failed(FileError.INVALID_LINE, "Error: Invalid `insert_line` parameter: " + insertLine + ". It should "
          + "be within the range of lines of the file: [0, " + lines.size() + "]");
    }
    String text = insertText.endsWith("\n") ? insertText.substring(0, insertText.length() - 1) : insertText;
    List<String> next = new ArrayList<>(lines.subList(0, (int) insertLine));
    next.addAll(lines(text));
    next.addAll(lines.subList((int) insertLine, lines.size()));
    String joined = String.join("\n", next);
    WriteResult r = write(p, joined, revision);
    return FileResult.ok("The file " + p.shown() + " has been edited." + notes(joined, r), r.entry().contentHash());
  }

  private FileResult deleteAt(String raw, FileEditOptions options) {
    MemoryPath p = path(raw);
    requireWritable("delete");
    if (p.isRoot()) {
      throw new Failed(FileError.WRONG_KIND, "Error: " + MemoryPath.ROOT + " itself cannot be deleted; delete the "
          + "files or directories below it");
    }
    Tree tree = Tree.read(this);
    MemoryEntry file = tree.file(p);
    List<MemoryEntry> doomed = new ArrayList<>();
    if (file != null) {
      checkHash(file, p, options);
      doomed.add(file);
    }
    if (tree.isDirectory(p)) {
      if (options.expectedContentHash() != null) {
        throw new Failed(FileError.WRONG_KIND, "Error: " + p.shown() + " is a directory; an expected content hash "
            + "applies to a file");
      }
      doomed.addAll(tree.below(p));
    }
    if (doomed.isEmpty()) {
      throw new Failed(FileError.NOT_FOUND, "Error: The path " + p.shown() + " does not exist");
    }
    int done = 0;
    for (MemoryEntry e : doomed) {
      try {
        engram.retire(Objects.requireNonNull(writeGrants), e.citation(),
            ChangeOptions.builder().source(source).origin(ORIGIN)
                .reason("deleted " + p.shown() + " through the memory file view").build());
      } catch (MemoryException ex) {
        if (done == 0) {
          throw ex;
        }
        return partial("delete", p, done, doomed.size(), ex);
      }
      done++;
    }
    return FileResult.ok("Successfully deleted " + p.shown(), null);
  }

  private FileResult renameAt(String rawOld, String rawNew, FileEditOptions options) {
    MemoryPath from = path(rawOld);
    MemoryPath to = path(rawNew);
    requireWritable("rename");
    if (from.isRoot()) {
      throw new Failed(FileError.WRONG_KIND, "Error: " + MemoryPath.ROOT + " itself cannot be renamed");
    }
    long revision = engram.revision(grants, scope);
    Tree tree = Tree.read(this);
    MemoryEntry file = tree.file(from);
    boolean directory = tree.isDirectory(from);
    if (file == null && !directory) {
      throw new Failed(FileError.NOT_FOUND, "Error: The path " + from.shown() + " does not exist");
    }
    if (to.isRoot() || tree.file(to) != null || tree.isDirectory(to)) {
      throw new Failed(FileError.ALREADY_EXISTS, "Error: The destination " + to.shown() + " already exists");
    }
    if (from.isAncestorOf(to)) {
      throw new Failed(FileError.INVALID_PATH, "Error: " + from.shown() + " cannot be moved below itself ("
          + to.shown() + ")");
    }
    tree.requireNoFileAbove(to);
    List<MemoryEntry> moving = new ArrayList<>();
    if (file != null) {
      checkHash(file, from, options);
      moving.add(file);
    }
    if (directory) {
      if (options.expectedContentHash() != null) {
        throw new Failed(FileError.WRONG_KIND, "Error: " + from.shown() + " is a directory; an expected content hash "
            + "applies to a file");
      }
      moving.addAll(tree.below(from));
    }
    int done = 0;
    for (MemoryEntry e : moving) {
      MemoryPath target = Objects.requireNonNull(MemoryPath.ofLore(Objects.requireNonNull(e.path()))).moved(from, to);
      ChangeOptions.Builder changeOptions = ChangeOptions.builder().source(source).origin(ORIGIN)
          .reason("renamed " + from.shown() + " to " + to.shown() + " through the memory file view");
      if (done == 0) {
        changeOptions.expectedRevision(revision);
      }
      ChangeOptions change = changeOptions.build();
      try {
        engram.move(Objects.requireNonNull(writeGrants), e.entryId(), target.lore(), change);
      } catch (MemoryException ex) {
        if (done == 0) {
          throw ex;
        }
        return partial("rename", from, done, moving.size(), ex);
      }
      done++;
    }
    return FileResult.ok("Successfully renamed " + from.shown() + " to " + to.shown(), null);
  }

  private FileResult partial(String command, MemoryPath p, int done, int total, MemoryException cause) {
    LOG.warn("memory file command {} stopped after {} of {} files: {}", command, done, total, cause.code());
    return FileResult.failed(FileError.CONFLICT, "Error: memory changed while " + command + " of " + p.shown()
        + " ran: " + done + " of " + total + " files were done and the others were left as they were. View "
        + MemoryPath.ROOT + " and retry what is left");
  }

  private WriteResult write(MemoryPath p, String text, long expectedRevision) {
    WriteOptions options = WriteOptions.builder()
        .path(p.lore())
        .topicsHint(TOPIC)
        .source(source)
        .origin(ORIGIN)
        .writePolicy(WritePolicy.grantOnly())
        .expectedRevision(expectedRevision)
        .build();
    WriteResult r = engram.write(Objects.requireNonNull(writeGrants), text, options);
    if (!r.entry().scope().equals(scope) || !p.lore().equals(r.entry().path())) {
      // the write was filed elsewhere: never expected with grantOnly over one namespace
      throw new IllegalStateException("a file write was filed outside its path");
    }
    return r;
  }

  private MemoryEntry existingFile(Tree tree, MemoryPath p, String command, String notFoundTail) {
    MemoryEntry file = tree.file(p);
    if (file != null) {
      return file;
    }
    if (tree.isDirectory(p)) {
      throw new Failed(FileError.WRONG_KIND, "Error: The path " + p.shown() + " is a directory; " + command
          + " edits a file");
    }
    throw new Failed(FileError.NOT_FOUND, "Error: The path " + p.shown() + " does not exist" + notFoundTail);
  }

  private static void checkHash(MemoryEntry file, MemoryPath p, FileEditOptions options) {
    String expected = options.expectedContentHash();
    if (expected != null && !expected.equals(file.contentHash())) {
      throw new Failed(FileError.CONFLICT, "Error: The file " + p.shown() + " changed since it was read: its content "
          + "hash is " + file.contentHash() + ", not the expected " + expected + ". View it again; nothing was "
          + "changed");
    }
  }

  /** What the write did that the model should know: text stored otherwise than given, warnings. */
  private static String notes(String given, WriteResult r) {
    StringBuilder out = new StringBuilder();
    if (!r.entry().content().equals(given)) {
      out.append("\nNote: memory stored the text otherwise than given (it keeps text normalized: no blank lines, "
          + "lines trimmed, runs of spaces made one); the file now has ").append(lines(r.entry().content()).size())
          .append(" lines. View it to see them as stored.");
    }
    for (String w : r.warnings()) {
      if (w.startsWith("disclosure")) {
        // a file has no disclosure to word; the check's advice is not for the model editing it
        LOG.debug("memory file write: {}", w);
        continue;
      }
      LOG.info("memory file write: {}", w);
      out.append("\nNote: ").append(Tools.clip(w, 300));
    }
    if (r.vectorsMissing()) {
      LOG.warn("memory file write stored without vectors; reindex adds them");
      out.append("\nNote: the file is stored but not yet indexed for meaning-based search.");
    }
    return out.toString();
  }

  static List<String> lines(String content) {
    return List.of(content.split("\n", -1));
  }

  private static int lineOf(String content, int index) {
    int line = 1;
    for (int i = 0; i < index; i++) {
      if (content.charAt(i) == '\n') {
        line++;
      }
    }
    return line;
  }

  private static void number(StringBuilder out, List<String> lines, int first, int last) {
    for (int i = first; i <= last; i++) {
      out.append('\n').append(String.format(Locale.ROOT, "%6d", i)).append('\t').append(lines.get(i - 1));
    }
  }

  private static String join(TreeSet<Integer> numbers) {
    StringBuilder sb = new StringBuilder();
    for (int n : numbers) {
      if (sb.length() > 0) {
        sb.append(", ");
      }
      sb.append(n);
    }
    return sb.toString();
  }

  private static String echoText(String s) {
    return s.length() <= ECHO_TEXT_CHARS ? s : s.substring(0, ECHO_TEXT_CHARS) + "…";
  }

  /** Sizes as a listing shows them: bytes below 1 KiB, else K or M with one decimal below 10. */
  static String size(long bytes) {
    if (bytes < 1024) {
      return Long.toString(bytes);
    }
    double value = bytes / 1024.0;
    String unit = "K";
    if (value >= 1024) {
      value /= 1024;
      unit = "M";
    }
    return (value < 10 ? String.format(Locale.ROOT, "%.1f", value) : Long.toString(Math.round(value))) + unit;
  }

  /** The files of the view as read at one moment: relative path to the file's current version. */
  private static final class Tree {
    private final Map<String, MemoryEntry> files;

    private Tree(Map<String, MemoryEntry> files) {
      this.files = files;
    }

    static Tree read(MemoryFiles view) {
      Map<String, MemoryEntry> files = new TreeMap<>();
      for (MemoryEntry e : view.engram.list(view.grants, ListOptions.builder().scope(view.scope).build())) {
        String lore = e.path();
        if (e.isActive() && e.scope().equals(view.scope) && lore != null) {
          MemoryPath p = MemoryPath.ofLore(lore);
          if (p != null) {
            files.put(p.relative(), e);
          }
        }
      }
      return new Tree(files);
    }

    @Nullable MemoryEntry file(MemoryPath p) {
      return p.isRoot() ? null : files.get(p.relative());
    }

    boolean isDirectory(MemoryPath p) {
      if (p.isRoot()) {
        return true;
      }
      String prefix = p.relative() + "/";
      for (String rel : files.keySet()) {
        if (rel.startsWith(prefix)) {
          return true;
        }
      }
      return false;
    }

    /** The files strictly below a directory, by path. */
    List<MemoryEntry> below(MemoryPath dir) {
      String prefix = dir.isRoot() ? "" : dir.relative() + "/";
      List<MemoryEntry> out = new ArrayList<>();
      files.forEach((rel, e) -> {
        if (rel.startsWith(prefix)) {
          out.add(e);
        }
      });
      return out;
    }

    void requireNoFileAbove(MemoryPath p) {
      for (int i = 1; i < p.segments().size(); i++) {
        String above = String.join("/", p.segments().subList(0, i));
        if (files.containsKey(above)) {
          throw new Failed(FileError.WRONG_KIND, "Error: " + MemoryPath.ROOT + "/" + above + " is a file, so "
              + p.shown() + " cannot be placed below it");
        }
      }
    }

    String listing(MemoryPath dir) {
      String prefix = dir.isRoot() ? "" : dir.relative() + "/";
      Map<String, Long> sizes = new TreeMap<>();
      long total = 0;
      for (Map.Entry<String, MemoryEntry> f : files.entrySet()) {
        if (!f.getKey().startsWith(prefix)) {
          continue;
        }
        long bytes = f.getValue().content().getBytes(StandardCharsets.UTF_8).length;
        total += bytes;
        String[] rest = f.getKey().substring(prefix.length()).split("/");
        if (hidden(rest)) {
          continue;
        }
        for (int depth = 1; depth <= Math.min(LISTING_DEPTH, rest.length); depth++) {
          sizes.merge(String.join("/", java.util.Arrays.asList(rest).subList(0, depth)), bytes, Long::sum);
        }
      }
      StringBuilder out = new StringBuilder("Here're the files and directories up to ").append(LISTING_DEPTH)
          .append(" levels deep in ").append(dir.shown()).append(", excluding hidden items and node_modules:");
      out.append('\n').append(size(total)).append('\t').append(dir.shown());
      sizes.forEach((rel, bytes) -> out.append('\n').append(size(bytes)).append('\t').append(dir.shown())
          .append('/').append(rel));
      return out.toString();
    }

    private static boolean hidden(String[] segments) {
      for (String s : segments) {
        if (s.startsWith(".") || s.equals("node_modules")) {
          return true;
        }
      }
      return false;
    }
  }

  @Override
  public String toString() {
    return "MemoryFiles[" + mode() + "]";
  }
}
