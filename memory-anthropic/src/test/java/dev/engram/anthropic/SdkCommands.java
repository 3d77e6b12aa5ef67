/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.anthropic;

import com.anthropic.core.ObjectMappers;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.anthropic.helpers.BetaMemoryToolHandler;
import com.anthropic.models.beta.messages.BetaMemoryTool20250818Command;
import com.anthropic.models.beta.messages.BetaMemoryTool20250818CreateCommand;
import com.anthropic.models.beta.messages.BetaMemoryTool20250818DeleteCommand;
import com.anthropic.models.beta.messages.BetaMemoryTool20250818InsertCommand;
import com.anthropic.models.beta.messages.BetaMemoryTool20250818RenameCommand;
import com.anthropic.models.beta.messages.BetaMemoryTool20250818StrReplaceCommand;
import com.anthropic.models.beta.messages.BetaMemoryTool20250818ViewCommand;

/**
 * Runs a memory tool input on a handler the way the SDK's tool runner does: the tool use's input JSON is
 * read by the SDK's own JSON mapper as its {@link BetaMemoryTool20250818Command} and the command object is
 * handed to the handler method of that command.
 */
final class SdkCommands {
  private SdkCommands() {}

  static BetaMemoryTool20250818Command parse(String inputJson) {
    try {
      return ObjectMappers.jsonMapper().readValue(inputJson, BetaMemoryTool20250818Command.class);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(inputJson, e);
    }
  }

  static String run(BetaMemoryToolHandler handler, String inputJson) {
    return parse(inputJson).accept(new BetaMemoryTool20250818Command.Visitor<String>() {
      @Override
      public String visitView(BetaMemoryTool20250818ViewCommand c) {
        return handler.view(c.path(), c.viewRange());
      }

      @Override
      public String visitCreate(BetaMemoryTool20250818CreateCommand c) {
        return handler.create(c.path(), c.fileText());
      }

      @Override
      public String visitStrReplace(BetaMemoryTool20250818StrReplaceCommand c) {
        return handler.strReplace(c.path(), c.oldStr(), c.newStr());
      }

      @Override
      public String visitInsert(BetaMemoryTool20250818InsertCommand c) {
        return handler.insert(c.path(), c.insertLine(), c.insertText());
      }

      @Override
      public String visitDelete(BetaMemoryTool20250818DeleteCommand c) {
        return handler.delete(c.path());
      }

      @Override
      public String visitRename(BetaMemoryTool20250818RenameCommand c) {
        return handler.rename(c.oldPath(), c.newPath());
      }
    });
  }
}
