/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.ListOptions;
import dev.engram.MemoryEntry;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.ai.document.Document;
import org.springframework.ai.vectorstore.SearchRequest;

class EngramVectorStoreTest {
  private final Engram engram = TestStores.engram(TestStores.Kind.SQLITE);
  private final Grants grants = Grants.of("app/docs");
  private final EngramVectorStore store = EngramVectorStore.builder(engram, grants).build();

  @AfterEach
  void close() {
    engram.close();
  }

  private List<Document> search(String query, String filter) {
    return store.similaritySearch(SearchRequest.builder().query(query).topK(10).filterExpression(filter).build());
  }

  @Test
  void metadataComesBackAsItWentIn() {
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put("title", "Zürich  notes\tfor  ünïcode");
    meta.put("year", 2023);
    meta.put("ratio", 0.25);
    meta.put("draft", true);
    meta.put("tags", List.of("a", "b"));
    store.add(List.of(new Document("d-1", "Quarterly planning notes for the Zurich office", meta)));

    Document found = store.similaritySearch("planning notes").get(0);
    assertThat(found.getId()).isEqualTo("d-1");
    assertThat(found.getText()).isEqualTo("Quarterly planning notes for the Zurich office");
    assertThat(found.getMetadata()).containsAllEntriesOf(meta);
    assertThat((String) found.getMetadata().get(EngramVectorStore.CITATION_KEY)).contains("app/docs");
  }

  @Test
  void reAddingAnIdMakesANewVersionAndDistinctIdsStayDistinct() {
    store.add(List.of(new Document("a", "Same words here", Map.of("v", 1)),
        new Document("b", "Same words here", Map.of("v", 1))));
    store.add(List.of(new Document("a", "Same words here", Map.of("v", 2))));

    List<MemoryEntry> entries = engram.list(grants, ListOptions.builder().includeSuperseded(true).build());
    assertThat(entries).extracting(MemoryEntry::path).containsExactlyInAnyOrder("doc://a", "doc://a", "doc://b");
    assertThat(search("same words", "v == 2")).extracting(Document::getId).containsExactly("a");
    assertThat(search("same words", "v == 1")).extracting(Document::getId).containsExactly("b");
  }

  @Test
  void idsThatAreNotPathsAreEncodedAndComeBack() {
    store.add(List.of(new Document("reports/2024 Q1.pdf#page=3", "Revenue grew in the first quarter", Map.of())));
    Document found = store.similaritySearch("revenue quarter").get(0);
    assertThat(found.getId()).isEqualTo("reports/2024 Q1.pdf#page=3");
    store.delete(List.of("reports/2024 Q1.pdf#page=3"));
    assertThat(store.similaritySearch("revenue quarter")).isEmpty();
  }

  @Test
  void filtersCoverEveryOperator() {
    store.add(List.of(
        new Document("bg20", "The garden report", Map.of("country", "BG", "year", 2020)),
        new Document("nl", "The garden report", Map.of("country", "NL")),
        new Document("bg23", "The garden report", Map.of("country", "BG", "year", 2023))));

    assertThat(search("garden", "country == 'BG' && year >= 2021")).extracting(Document::getId).containsExactly("bg23");
    assertThat(search("garden", "year < 2023")).extracting(Document::getId).containsExactly("bg20");
    assertThat(search("garden", "country != 'BG'")).extracting(Document::getId).containsExactly("nl");
    assertThat(search("garden", "country in ['NL', 'DE']")).extracting(Document::getId).containsExactly("nl");
    assertThat(search("garden", "country nin ['NL']")).extracting(Document::getId).containsExactlyInAnyOrder("bg20", "bg23");
    assertThat(search("garden", "NOT (country == 'BG')")).extracting(Document::getId).containsExactly("nl");
    assertThat(search("garden", "year == 2020.0 || country == 'NL'")).extracting(Document::getId)
        .containsExactlyInAnyOrder("bg20", "nl");
    assertThat(search("garden", "year IS NULL")).extracting(Document::getId).containsExactly("nl");
    assertThat(search("", "year IS NOT NULL")).extracting(Document::getId).containsExactlyInAnyOrder("bg20", "bg23");
  }

  @Test
  void thresholdAboveZeroNeedsVectorsAndTheEngineHasNone() {
    store.add(List.of(new Document("x", "The garden report", Map.of())));
    assertThat(store.similaritySearch(SearchRequest.builder().query("garden").similarityThreshold(0.5).build())).isEmpty();
    assertThat(store.similaritySearch(SearchRequest.builder().query("garden").similarityThresholdAll().build())).hasSize(1);
  }

  @Test
  void grantsKeepStoresApart() {
    EngramVectorStore other = EngramVectorStore.builder(engram, Grants.of("app/other")).build();
    store.add(List.of(new Document("mine", "The garden report", Map.of("country", "BG"))));
    other.add(List.of(new Document("theirs", "The garden report", Map.of("country", "BG"))));

    assertThat(other.similaritySearch("garden")).extracting(Document::getId).containsExactly("theirs");
    other.delete("country == 'BG'");
    assertThat(store.similaritySearch("garden")).extracting(Document::getId).containsExactly("mine");
    assertThat(other.similaritySearch("garden")).isEmpty();
  }

  @Test
  void badInputFailsNamingTheFieldAndStoresNothing() {
    Map<String, Object> big = new LinkedHashMap<>();
    for (int i = 0; i < 33; i++) {
      big.put("k" + i, i);
    }
    assertThatThrownBy(() -> store.add(List.of(new Document("ok", "Fine text", Map.of()),
        new Document("big", "Too much metadata", big))))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("document.metadata");
    assertThatThrownBy(() -> store.add(List.of(new Document("long", "Long value", Map.of("k", "x".repeat(200))))))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("document.metadata.k");
    assertThatThrownBy(() -> store.add(List.of(new Document("case", "Case twins", Map.of("A", "x", "a", "X")))))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("letter case");
    assertThatThrownBy(() -> store.add(List.of(new Document("x".repeat(300), "Long id", Map.of()))))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("document.id");
    assertThatThrownBy(() -> search("garden", "country > 'A' && "))
        .isInstanceOf(RuntimeException.class);
    assertThat(engram.list(grants)).isEmpty();
  }

  @Test
  void aRefusedDocumentLeavesTheStoreAsItWas() {
    store.add(List.of(new Document("policy", "Refunds within 30 days.", Map.of("v", 1))));
    List<MemoryEntry> before = engram.list(grants);
    String tooLong = "word ".repeat(2000);
    assertThatThrownBy(() -> store.add(List.of(new Document("policy", "Refunds within 14 days.", Map.of("v", 2)),
        new Document("fresh", "A new document.", Map.of()), new Document("big", tooLong, Map.of()))))
        .isInstanceOf(dev.engram.InvalidInputException.class).hasMessageContaining("content");
    assertThat(engram.list(grants)).extracting(MemoryEntry::path, MemoryEntry::content)
        .containsExactlyElementsOf(before.stream().map(e -> org.assertj.core.groups.Tuple.tuple(e.path(), e.content())).toList());
    Document policy = store.similaritySearch("refunds").get(0);
    assertThat(policy.getText()).isEqualTo("Refunds within 30 days.");
    assertThat(policy.getMetadata()).containsEntry("v", 1);
    assertThat(store.similaritySearch("new document")).extracting(Document::getId).doesNotContain("fresh", "big");
    // a batch that is written is written whole
    store.add(List.of(new Document("x1", "First of two.", Map.of()), new Document("x2", "Second of two.", Map.of())));
    assertThat(store.similaritySearch(SearchRequest.builder().query("").topK(10).build()))
        .extracting(Document::getId).containsExactlyInAnyOrder("policy", "x1", "x2");
  }

  @Test
  void aTenantDeletesOnlyItsOwnDocumentAndSeesEachIdOnce() {
    EngramVectorStore shared = store;
    EngramVectorStore alice = EngramVectorStore.builder(engram, Grants.of("app/docs/alice")).build();
    shared.add(List.of(new Document("policy", "Company refund policy: 30 days.", Map.of("owner", "company"))));
    alice.add(List.of(new Document("policy", "Alice's refund policy: 14 days.", Map.of("owner", "alice"))));

    List<Document> found = alice.similaritySearch(SearchRequest.builder().query("refund policy").topK(10).build());
    assertThat(found).extracting(Document::getId).containsExactly("policy");
    assertThat(found.get(0).getText()).startsWith("Alice's");
    assertThat(alice.similaritySearch(SearchRequest.builder().query("").topK(10).build()))
        .extracting(Document::getText).containsExactly("Alice's refund policy: 14 days.");

    alice.delete(List.of("policy"));
    assertThat(engram.list(Grants.of("app/docs/alice")).stream().filter(e -> e.scope().equals("app/docs/alice")))
        .isEmpty();
    assertThat(engram.list(grants)).extracting(MemoryEntry::content).containsExactly("Company refund policy: 30 days.");
    alice.add(List.of(new Document("policy", "Alice's refund policy: 14 days.", Map.of("owner", "alice"))));
    alice.delete("owner == 'company' || owner == 'alice'");
    assertThat(engram.list(grants)).extracting(MemoryEntry::content).containsExactly("Company refund policy: 30 days.");
    assertThat(alice.similaritySearch("refund policy")).extracting(Document::getText)
        .containsExactly("Company refund policy: 30 days.");
  }

  @Test
  void aLongQueryIsClippedForRecallInsteadOfFailing() {
    store.add(List.of(new Document("beds", "The tomato bed needs water every morning.", Map.of())));
    String message = "When does the tomato bed need water? " + "Here is my whole garden diary. ".repeat(330);
    assertThat(message.length()).isGreaterThan(10_000);
    assertThat(store.similaritySearch(message)).extracting(Document::getId).containsExactly("beds");
    assertThat(store.similaritySearch(SearchRequest.builder().query(message).filterExpression("lang == 'en'").build()))
        .isEmpty();
  }
}
