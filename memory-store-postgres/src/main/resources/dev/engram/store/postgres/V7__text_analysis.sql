-- Full text holds the terms of Engram's one text analysis (dev.engram.spi.TextAnalysis), the same terms
-- every store indexes, written as tsvector literals so no server parser, dictionary or stemmer changes
-- them. This table records the analysis version the search column was built with. A store that finds
-- no row, or an older version, re-analyses every version's search column from its text when it opens,
-- then records the version it used; versions written before this migration hold the 'english'
-- configuration's lexemes until then.
CREATE TABLE ${schema}${prefix}text_analysis (
  analysis integer NOT NULL
);
