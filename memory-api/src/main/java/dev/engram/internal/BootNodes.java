package dev.engram.internal;

import dev.engram.BootNodeException;
import dev.engram.ClientType;
import dev.engram.MemoryEntry;
import java.util.LinkedHashSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The fixed boot nodes: {@code core://agent}, {@code core://soul}, {@code preferences://user} and one
 * {@code core://agent/<client_type>} per {@link ClientType}. They can be edited (new versions) but
 * never deleted, retired, moved or curated.
 */
final class BootNodes {
  static final String AGENT = "core://agent";
  static final String SOUL = "core://soul";
  static final String USER = "preferences://user";
  static final Set<String> PATHS;

  static {
    Set<String> paths = new LinkedHashSet<>();
    paths.add(AGENT);
    paths.add(SOUL);
    paths.add(USER);
    for (ClientType t : ClientType.values()) {
      paths.add(t.bootPath());
    }
    PATHS = Set.copyOf(paths);
  }

  private BootNodes() {}

  static boolean isBootPath(@Nullable String path) {
    return path != null && PATHS.contains(path);
  }

  static boolean isBootNode(MemoryEntry e) {
    return isBootPath(e.path());
  }

  /** Fails with {@link BootNodeException} when {@code e} is a boot node; {@code operation} says what was refused. */
  static void refuse(MemoryEntry e, String operation) {
    if (isBootNode(e)) {
      throw new BootNodeException(e.path(), operation);
    }
  }

  static void requireMovable(MemoryEntry e) {
    refuse(e, "moved");
  }

  /** Fails when {@code path} is a boot node's address: boot nodes are made by writing to it, not by a move. */
  static void requireNotBootPath(String path) {
    if (isBootPath(path)) {
      throw new BootNodeException(path, "the target of a move (write to " + path + " to create it)");
    }
  }
}
