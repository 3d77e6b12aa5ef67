/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.reasoner.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.spi.EntryViews;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Writes the views (a gist and up to three questions) of one version for the vector channel. */
final class ViewsJob implements Job<ViewsJob.Input, EntryViews> {
  static final String NAME = "views";

  record Input(String content, @Nullable String disclosure, List<String> glossary, @Nullable String path) {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String rules() {
    return """
        Job: write the search views of one memory entry (the CONTENT block): a gist (one short sentence, at \
        most 200 characters, that says what the entry is about) and up to 3 short questions the entry answers, \
        phrased the way a person would ask them. Use only what the entry says.""";
  }

  @Override
  public String prompt(Input in) {
    StringBuilder p = new StringBuilder(Prompts.data("CONTENT", in.content()));
    if (in.disclosure() != null) {
      p.append("\nWhen it should come up:\n").append(Prompts.data("DISCLOSURE", in.disclosure()));
    }
    if (!in.glossary().isEmpty()) {
      p.append("\nWords people use for it:\n").append(Prompts.data("GLOSSARY", String.join(", ", in.glossary())));
    }
    return p.toString();
  }

  @Override
  public ObjectNode schema(Input in) {
    return TagJob.viewsSchema();
  }

  @Override
  public EntryViews read(JsonNode answer, Input in) {
    String source = in.content() + "\n" + (in.disclosure() == null ? "" : in.disclosure()) + "\n"
        + String.join(" ", in.glossary());
    EntryViews views = TagJob.views(answer, source);
    if (views == null) {
      throw Answers.invalid(NAME, "gist or questions are missing, too long, or add names or numbers");
    }
    return views;
  }
}
