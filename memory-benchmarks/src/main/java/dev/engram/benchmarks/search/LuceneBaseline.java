/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.benchmarks.search;

import dev.engram.spi.FullTextQuery;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.en.EnglishPossessiveFilter;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.queryparser.classic.ParseException;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.MMapDirectory;

/**
 * The full-text baseline: a Lucene index of the same texts, memory-mapped and merged into one
 * segment, searched with {@link BM25Similarity} (k1 1.2, b 0.75, Lucene's defaults and the engine's).
 * Analysis mirrors the in-memory store: standard tokenizer, English possessives, lowercase, Porter
 * stems; the engine's stopwords ({@link FullTextQuery#STOPWORDS}) are dropped from texts and queries,
 * as the engine's text analysis drops them (so document lengths match the store's). A query goes
 * through the classic {@link QueryParser} (escaped, terms OR-ed) and returns the top hits with their
 * stored text, as a search call of the engine returns entries.
 */
final class LuceneBaseline implements AutoCloseable {
  static final String FIELD = "content";

  private final Analyzer indexAnalyzer;
  private final Analyzer queryAnalyzer;
  private final Directory directory;
  private final DirectoryReader reader;
  private final IndexSearcher searcher;

  LuceneBaseline(Path dir, List<String> texts) throws IOException {
    this.indexAnalyzer = analyzer(new CharArraySet(FullTextQuery.STOPWORDS, false));
    this.queryAnalyzer = analyzer(new CharArraySet(FullTextQuery.STOPWORDS, false));
    this.directory = new MMapDirectory(dir);
    IndexWriterConfig config = new IndexWriterConfig(indexAnalyzer)
        .setSimilarity(new BM25Similarity())
        .setOpenMode(IndexWriterConfig.OpenMode.CREATE)
        .setRAMBufferSizeMB(256);
    try (IndexWriter writer = new IndexWriter(directory, config)) {
      for (String text : texts) {
        Document doc = new Document();
        doc.add(new TextField(FIELD, text, Field.Store.NO));
        doc.add(new StoredField("text", text));
        writer.addDocument(doc);
      }
      writer.forceMerge(1);
      writer.commit();
    }
    this.reader = DirectoryReader.open(directory);
    this.searcher = new IndexSearcher(reader);
    searcher.setSimilarity(new BM25Similarity());
  }

  /** Standard tokenizer, English possessives, lowercase, {@code stop}, Porter stems. */
  private static Analyzer analyzer(CharArraySet stop) {
    return new Analyzer() {
      @Override
      protected TokenStreamComponents createComponents(String fieldName) {
        Tokenizer source = new StandardTokenizer();
        TokenStream ts = new EnglishPossessiveFilter(source);
        ts = new LowerCaseFilter(ts);
        if (!stop.isEmpty()) {
          ts = new StopFilter(ts, stop);
        }
        ts = new PorterStemFilter(ts);
        return new TokenStreamComponents(source, ts);
      }
    };
  }

  /** The texts of the best {@code limit} documents for {@code text}, best first. */
  List<String> search(String text, int limit) throws IOException {
    Query query;
    try {
      query = new QueryParser(FIELD, queryAnalyzer).parse(QueryParser.escape(text));
    } catch (ParseException e) {
      throw new IllegalArgumentException("query '" + text + "' did not parse: " + e.getMessage(), e);
    }
    TopDocs top = searcher.search(query, limit);
    StoredFields stored = searcher.storedFields();
    List<String> out = new ArrayList<>(top.scoreDocs.length);
    for (ScoreDoc d : top.scoreDocs) {
      out.add(stored.document(d.doc).get("text"));
    }
    return out;
  }

  @Override
  public void close() throws IOException {
    reader.close();
    directory.close();
  }
}
