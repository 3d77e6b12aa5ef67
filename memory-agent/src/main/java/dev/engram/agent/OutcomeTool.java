/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.agent;

import static dev.engram.agent.ArgumentSchema.object;
import static dev.engram.agent.ArgumentSchema.properties;
import static dev.engram.agent.ArgumentSchema.string;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.CapturedSource;
import dev.engram.Grants;
import dev.engram.SourceRecord;

/**
 * {@code memory_record_outcome}: the agent reports how a task went. The report is captured as a source
 * record marked as a task outcome ({@link SourceRecord#taskOutcome}) in the grants' first scope, with the
 * tool's actor as session and speaker; it writes no memory. The reasoner incubates experience from such
 * records ({@code Engram.experience().incubate}), and a person approves it before it reaches context.
 */
final class OutcomeTool {
  static final String NAME = "memory_record_outcome";
  static final int MAX_TASK_CHARS = 2000;
  static final int MAX_OUTCOME_CHARS = 8000;
  static final String DESCRIPTION = """
      Report how a task went when you finish it or give up: what the task was, what you did and how it \
      turned out, including what failed and why. The report is kept as a record, not as memory; lessons a \
      reviewer approves from such reports come back to later sessions as experience.""";

  private OutcomeTool() {}

  static ObjectNode schema() {
    return object(properties(
        "task", string("What the task was, in one or two sentences.", 1, MAX_TASK_CHARS),
        "outcome", string("What you did and how it turned out: what worked, what failed and why.", 1,
            MAX_OUTCOME_CHARS)),
        "task", "outcome");
  }

  /** Captures the report; the result names the record, no content. */
  static ObjectNode run(MemoryResource resource, Grants grants, String actor, JsonNode args) {
    String text = "Task: " + args.get("task").textValue().strip() + "\nOutcome: " + args.get("outcome").textValue().strip();
    CapturedSource stored = resource.engram.capture(grants, SourceRecord.taskOutcome(actor, actor, text));
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.put("outcome", "recorded");
    out.put("record", stored.id());
    out.put("note", "a reviewer may turn this report into a lesson for later sessions");
    return out;
  }
}
