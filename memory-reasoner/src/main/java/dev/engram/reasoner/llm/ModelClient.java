/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.reasoner.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * One wire format: turns a {@link Call} (system rules, user message, the job's JSON schema) into the
 * JSON object the model answered, or an {@link LlmException}. Implementations own the HTTP details;
 * jobs never see them.
 */
interface ModelClient {

  /**
   * Runs one call, retrying as configured.
   *
   * @param call what to ask
   * @return the model's JSON object and the usage of the call
   * @throws LlmException when no usable JSON object came back
   */
  Answer complete(Call call);

  /** The config this client talks to. */
  ModelConfig config();

  /**
   * @param job the job's name, also the schema's and tool's name
   * @param system the system rules
   * @param user the user message, with all untrusted data delimited
   * @param schema the JSON schema the answer must match
   */
  record Call(String job, String system, String user, ObjectNode schema) {
    public Call {
      Objects.requireNonNull(job, "job");
      Objects.requireNonNull(system, "system");
      Objects.requireNonNull(user, "user");
      Objects.requireNonNull(schema, "schema");
    }
  }

  /** The model's JSON object and what the call cost. */
  record Answer(JsonNode value, ModelUsage usage) {}
}
