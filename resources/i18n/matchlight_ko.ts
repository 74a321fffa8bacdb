<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ko" sourcelanguage="en">
<context>
    <name>AboutDialog</name>
    <message>
        <source>About Matchlight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;h2&gt;Matchlight {__version__}&lt;/h2&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reference-based evaluation of generated text: BLEU, chrF, ROUGE and NLTK-BLEU per sentence, with the matches highlighted. Every number equals the reference implementation&apos;s, bit for bit.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>BucketsPanel</name>
    <message>
        <source>The buckets could not be computed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How segments are grouped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The score column shown per bucket</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mean of segment scores</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>corpus score per bucket</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>in the reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>from a count file…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>from a training text…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Word frequencies from {0}</source>
        <extracomment>The word frequencies&apos; file (None: the reference&apos;s own counts).</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>word&lt;TAB&gt;count file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>training text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Word frequencies: a {what}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reference length</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>length ratio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>word frequency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a comparison to compare the systems per bucket.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scoring… the buckets appear when every segment is scored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{reading}Computing bootstrap intervals over {0:,} segments…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (lower is better)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0}{1} per bucket</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CellTextDialog</name>
    <message>
        <source>{title} — Matchlight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{title} · {0:,} characters</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ChartLink</name>
    <message>
        <source>Segment {0} is not among the rows the table shows (filtered out).</source>
        <extracomment>How long chart updates wait to batch scores arriving in chunks (ms). The source of the row set a chart brush puts in the selection (one per selection).</extracomment>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ChartPanel</name>
    <message>
        <source>Export</source>
        <extracomment>The tab title.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the chart as a PNG or SVG file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG image…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SVG vector image…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is nothing to export yet.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ComparisonLifecycle</name>
    <message>
        <source>Could not read the files: {error} ({0})</source>
        <extracomment>Rows whose highlight detail is computed while the files are read: a screenful, so that the table is painted once with its highlights when it appears (not plain, then again). How long after the table&apos;s first paint was scheduled the detail pane is filled. How long after the detail pane is filled the language check starts (off the GUI thread). Pages of the window&apos;s central stack. Facts about the references the scoring advice uses (derived once per comparison). Outputs in another language, outputs copying the source (core.analysis.language): checked in the background once the comparison is shown; None until then.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open the comparison</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading cancelled; nothing was opened.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop reading the files; nothing is opened</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop scoring; the rows scored so far stay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scoring failed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scoring failed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CsvExport</name>
    <message>
        <source>{0:,} row</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0:,} rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export filtered rows as CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export all rows as CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (only the {0} scored so far)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing to export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a comparison first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (only the rows scored so far: scoring stopped at {0:,} of {1:,})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported {0} to {path}{note}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DetailCache</name>
    <message>
        <source>Could not compute the highlights of segment {0}: {reason}</source>
        <extracomment>Rows kept in the LRU. Queued requests kept; older ones (rows scrolled past) are dropped. How long one turn of computing may run before the event loop gets control back (a row takes about a millisecond; one that takes longer still finishes). Rows whose references and outputs hold more characters than this are computed in a worker process (what is left is a short stretch of work in the GUI thread at most).</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no worker could be started</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DistributionsPanel</name>
    <message>
        <source>The score column both histograms show</source>
        <extracomment>Width of the bar of exact ties, as a share of a bin (it stands on zero, over its neighbours). The height each histogram&apos;s plot area keeps at least, in pixels (a short panel scrolls). Lines of text around a plot not laid out yet: a title of up to two lines, the tick labels, the axis label, and their margins.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Whose scores a dragged range or a clicked bar of the left histogram selects</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System A of the difference A − B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System B of the difference A − B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select by:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a comparison to see its score distributions.</source>
        <extracomment>(A better, equal, B better) among the rows drawn.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scoring… the distributions appear with the first scores.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{shown:,} of {n_total:,} segments (the current selection)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Scoring: {0:,} scored so far.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sentence {0} per system</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{a_name} − {b_name} per segment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pick two different systems</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FilterBar</name>
    <message>
        <source>any text column</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>output in another language</source>
        <extracomment>Combo-box data for &quot;any text column&quot;. Never None: PySide6 6.12 on CPython 3.11 drops a reference to None whenever an item&apos;s None data comes back to Python. The row sets of the language check&apos;s &quot;Show&quot; entries come from this source. (kind, flag of :class:`~core.analysis.language.LanguageFlags`, label) of the &quot;Show&quot; entries made from the language check: the rows where some system&apos;s output has the flag, as a row set (so a session keeps the rows while the check runs again).</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>output copying the source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>all rows</source>
        <extracomment>(kind passed to the proxy, label) of the special filters; the language check&apos;s last.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rows with an empty text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>length-mismatched rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ROUGE-Lsum = ROUGE-L rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0:,} row</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0:,} rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search the texts ({shortcut})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Regular expression (Python syntax, plus Unicode properties such as \p{Han})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Aa</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Case sensitive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where to search</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show only rows of a kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear filters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>0 of 0 rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Score</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep rows whose score lies in a range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Difference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>of</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{total} rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{visible} of {total} rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>segments {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>text {0} in {1}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an empty output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an empty reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an empty text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rows with {what}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rows without {what}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>length ratio outside [{0}, {1}]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>length ratio inside [{0}, {1}]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rows flagged {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The language check runs once the comparison is read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the comparison with its source file to find copies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The references are in no clear language</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FilterChip</name>
    <message>
        <source>{text}
Set outside the filter bar; ✕ removes this filter.</source>
        <extracomment>The fewest characters of its current entry a squeezed combo box still shows. How wide a chip&apos;s text gets at most; a chip is narrower when the bar is (its text elided in the middle), and its whole text is its tooltip. The fewest characters a squeezed chip still shows.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove this filter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the filter {text}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>InfluenceModel</name>
    <message>
        <source>score(A) − score(B) over the rows shown, minus the same without this segment</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>InputRow</name>
    <message>
        <source>name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The system&apos;s name in the table and the CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{role} file (.txt, .tsv, .csv, .jsonl)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>column / key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TSV/CSV: a header name or a 1-based column number; JSONL: a (dotted) key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File format; auto = from the extension</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove this {role}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the {0} file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text files (*.txt *.tsv *.csv *.jsonl *.ndjson);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>JobPanel</name>
    <message>
        <source>This view could not be computed</source>
        <extracomment>The worker thread&apos;s name. A failed run shows &quot;&lt;failure&gt;: &lt;what went wrong&gt;&quot; in place of the chart.</extracomment>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LanguageMenu</name>
    <message>
        <source>&amp;Language</source>
        <extracomment>QSettings key of the chosen language: &quot;system&quot;, or a code of :data:`LANGUAGES`. The language&apos;s name in itself (shown so in the menu whatever the current language). The interface languages, English (the source) first. The translators installed by :func:`install_translators` (Qt does not own them).</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System language</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LatexExporter</name>
    <message>
        <source>Export &amp;LaTeX table…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Corpus scores of the rows shown as a LaTeX table for a paper: best in bold, daggers against the baseline, significance clusters (as matchlight compare --latex)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export LaTeX table</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a comparison of two systems or more and wait until it is scored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A LaTeX table is being written to {0} already.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Testing the systems for the LaTeX table…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>LaTeX table written to {path}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LegendWidget</name>
    <message>
        <source>Legend: {text}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens of the longest common subsequence of output and reference.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Corpus summary</source>
        <extracomment>``error_sink(title, message)``: shows an error to the user without blocking.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop scoring; the rows scored so far stay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resume scoring</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Score the rows left when scoring was cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>any system</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scoring {done:,} / {total:,}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scoring…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move between rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Up / Down, Page Up / Page Down</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>NgramModel</name>
    <message>
        <source>times A&apos;s output matches it in the references (clipped)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>times B&apos;s output matches it in the references (clipped)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>OpenComparisonDialog</name>
    <message>
        <source>Open comparison — Matchlight</source>
        <extracomment>``read(specs)``: a :class:`BackgroundCall` (not started) that reads the files of ``specs``; its value is a :class:`Comparison` or an object with a ``comparison`` attribute.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source (optional)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System outputs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>system</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop reading</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop reading the files; the dialog stays open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading {count} file…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading {count} files…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not read the files: {error} ({0})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading stopped.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PairwiseModel</name>
    <message>
        <source>significant at p ≤ {0:.4g} (Bonferroni: {ALPHA} / pairs)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ReadingPage</name>
    <message>
        <source>&lt;h2&gt;Reading the files…&lt;/h2&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop reading; nothing is opened</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0} files from {folder}:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0} files:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RecentList</name>
    <message>
        <source>Clear the list</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RecentSessions</name>
    <message>
        <source>Recent sessions</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ReferenceModel</name>
    <message>
        <source>{0:,} of {1:,} lines of {2} equal {3} (other systems: {4:g}, median)</source>
        <extracomment>From this many segments on, the per-reference scoring runs in worker processes (a thread would hold the GIL the window needs). The warning&apos;s colours (light, dark): text on a tinted box. Rows a :class:`SteppedAudit` compares per turn of the event loop (a few milliseconds).</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>corpus {0} against all {n_refs} references</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ReferencesPanel</name>
    <message>
        <source>The references could not be scored</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The score computed against each reference alone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Score:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a comparison to see what each reference contributes.</source>
        <extracomment>Whether the warning shows inside the panel (the comparison dock shows it above every tab instead).</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scoring… this view appears when every segment is scored.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ReportExporter</name>
    <message>
        <source>Export &amp;HTML report…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One self-contained HTML page: corpus scores, charts, significance, annotations and the selected rows with their highlights, as matchlight report writes it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export HTML report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a comparison and wait until every row is scored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A report is being written to {0} already.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Writing the HTML report…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Writing the report to {target}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Report written to {path}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ScatterPanel</name>
    <message>
        <source>The score column of both axes</source>
        <extracomment>From this many points on, points on the same spot are drawn once. The spot size, as a fraction of each axis&apos;s range: about a pixel of a 400-pixel plot, well under the 4-pixel points, so drawing one point per spot looks the same. A click selects the nearest point within this many pixels.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The system on the horizontal axis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The system on the vertical axis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reset view</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show every point again after zooming</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a comparison to compare two systems segment by segment.</source>
        <extracomment>The segments plotted (scored, with a value for both systems) and their coordinates. Segments above the diagonal, on it and below it (of :attr:`rows`). Indices into :attr:`rows` of the points drawn, and of the marked ones. The column&apos;s natural range when it has one at both ends (a square plot), else None.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scoring… the scatter appears with the first scores.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> The {marked:,} segments of the current selection are marked.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> ({0:,} distinct spots drawn)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SegmentTableModel</name>
    <message>
        <source>{name}, segment {0}: not scored yet</source>
        <extracomment>Numeric sort key (float score, NaN while unscored; int segment) or the text of text columns. The :class:`~core.scoring.results.SegmentScores` of the cell&apos;s system and row (None while The column kind: one of :data:`COLUMN_KINDS`. The system index of hypothesis, score and delta columns (None elsewhere). The reference index of reference columns (None elsewhere). The 0-based segment of the row (survives any proxy). Of a difference cell: +1 when the system is better than the baseline at the precision shown (lower, on a penalty such as MQM), -1 when worse, 0 when equal (None while unscored). Of a column&apos;s header: the title the table shows. A score or difference column stands in its system&apos;s group, after the output, so it shows its metric alone (&quot;BLEU&quot;, &quot;ΔBLEU&quot;); its display title also names the system (&quot;literal BLEU&quot;) for menus, copies and saved layouts. Every role the model answers; the others (asked for each cell on every paint: font, colours, decoration, check state, ...) get None at once.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; lower is better</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Segment number (line in the input files)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output of {name}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SeparationPanel</name>
    <message>
        <source>What separates</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The corpus score whose difference the segments move</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>helping A most</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>helping B most</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Corpus score:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select these segments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show only the segments of this list in the table</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Segments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a comparison to see what separates two systems.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Two systems are needed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scoring… this view appears when every segment is scored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pick two different systems as A and B.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>helping {a_name} most</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>helping {b_name} most</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; lower is better</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;What moves the corpus {label}&lt;/b&gt;: not available — {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“{0}” matched by {a} or {b}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the {0} segments helping {side} most ({label} {a} − {b})</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SessionFiles</name>
    <message>
        <source>Session: not saved yet (the first edit starts one)</source>
        <extracomment>How long after the comparison&apos;s state changed it is written to the session (ms). How often the session file is checked to be still ours, between edits (ms). How often unsaved edits are tried again (a full disk) (ms). ``notice(title, message)``: tells the user something that is not an error. ``offer(title, message)``: tells the user of work at risk and offers Save as. Tells the user that work is at risk and offers Save as; tests replace it.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Session: read-only copy of {0} — Save session as… to edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Session: NOT SAVED ({lost}) — Save session as… to keep {0} errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Session: {0} edits not saved yet ({1}); retrying</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;session…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a Matchlight session (.matchlight)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save session &amp;as…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the annotations, settings and selection under a name of your choosing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read the annotations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Session opened</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This is a read-only copy of a session: use Save session as… to edit it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot keep the annotations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{exc}

The annotation was not made: Matchlight saves every edit at once.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your edits are not in the session file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot save the session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every edit is saved again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save as…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open the session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{target}: no such session file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>

The file was not changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>

You can open a read-only copy of it to see (and save elsewhere) what can be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a read-only copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing to save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a comparison first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save session as</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Matchlight sessions (*{SUFFIX})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved the session as {saved}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Matchlight sessions (*{SUFFIX});;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot discard the session</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Scoring settings — Matchlight</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SettingsPanel</name>
    <message>
        <source>Metrics to score</source>
        <extracomment>Per metric key: the check box that says whether it is scored, and its group. Per (metric key, setting key): the setting&apos;s widget.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>separator text, e.g. &lt;/s&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sentence separator</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <source>Keyboard shortcuts — Matchlight</source>
        <extracomment>A titled group of rows of the shortcuts dialog: (title, [(what, keys), ...]). The title of the window&apos;s own actions when other sections follow them.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Action</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SignificanceModel</name>
    <message>
        <source>{0} of {1}: {untested} on these rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bootstrap mean {0!r}, 95% CI ± {1!r}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p-value {0!r} against the baseline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{verdict} than the baseline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no significant difference</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SignificancePanel</name>
    <message>
        <source>The tests failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paired bootstrap ({DEFAULT_BOOTSTRAP_SAMPLES:,} resamples)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approximate randomization ({DEFAULT_AR_TRIALS:,} trials)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sacreBLEU&apos;s --paired-bs or --paired-ar</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The random seed (sacreBLEU&apos;s default: 12345)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All pairs of</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Also test every pair of systems on one column (many tests: see the note)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test every system against the baseline on the rows shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the table as text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a comparison to test the systems against each other.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A paired test needs at least two systems.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the {0:,} selected segments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>all {0:,} segments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On {what}, against {baseline}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wait until every segment is scored</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paired bootstrap resampling with {0:,} resamples</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0} ({1:,} segments lack a value for some system)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Lower is better for {0}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Each system&apos;s figure is its mean over the segments where it has a value: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Not tested — </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>These results are for other rows or another baseline: run again. </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The selection changed: the significance run was cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All pairs not tested: {0}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SummaryModel</name>
    <message>
        <source>significance cluster {rank} of {0} over {rows:,} rows</source>
        <extracomment>Whether the view&apos;s background is dark (the filtered rows&apos; blue follows it).</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; p = {p:.4f} against {head}, the best of cluster {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>  filtered ({0})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>all rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the rows the filter keeps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0} over {1}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SummaryWidget</name>
    <message>
        <source>sentence BLEU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sentence BLEU per system</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click a bin to select that system&apos;s rows in it (the nearest curve)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy signatures</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the signatures to the clipboard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Signatures</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scoring…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Settings: {note}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Settings: the reference tools&apos; defaults</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scored {0} of {total} rows so far.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All {total} rows scored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter keeps {0} rows.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>filtered rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>all rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sentence {0} per system ({scope_name})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Significance clusters [n] follow once every row is scored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Significance clusters [n]: paired tests of every pair of systems over {0}… {1}%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Significance clusters could not be computed: {message}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>all {0:,} rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> and the {0:,} filtered rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Lower is better for {0}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Not ranked: </source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TableColumns</name>
    <message>
        <source>Scores shown per system</source>
        <extracomment>Room around a figure in a score or Δ column: the cell&apos;s margins and, in the header, the sort indicator. Widths of the text columns, in pixels: at most (an output; a source or reference) and at least.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy this cell</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the whole text…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rows where {0} scores worse than {1} (baseline) on {label}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear filters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copied segment {0} (every column).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ViewControl</name>
    <message>
        <source>{lines} lines of text</source>
        <extracomment>Zoom steps (points added to the table&apos;s and the detail pane&apos;s font), and their bounds. The row heights on offer, in lines of text. How long view-state changes are collected before they are saved.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Highlight {0}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Warnings</name>
    <message>
        <source>; and {0} more</source>
        <extracomment>Input warnings named in the banner before &quot;and N more&quot;.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Input warnings — {shown}.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>WarningsBanner</name>
    <message>
        <source>Dismiss this warning</source>
        <extracomment>The largest share of the window&apos;s height the banner takes; more warnings scroll. Lines of text the banner may always show, however small the window. (background, border, text) of the banner in a light and in a dark palette.</extracomment>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>WelcomePage</name>
    <message>
        <source>&lt;h2&gt;No comparison open&lt;/h2&gt;</source>
        <extracomment>Width of the welcome page&apos;s text column; the labels wrap inside it. Files named on the reading page (the rest are counted).</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open line-aligned files — an optional source, one or more references and one or more system outputs — to score every segment with BLEU and ROUGE and see what matched.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>You can also drop the files, or a folder holding them, onto this window.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open comparison…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the sample (German → English)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>_RowList</name>
    <message>
        <source>Add {role}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>about</name>
    <message>
        <source>not installed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>BLEU and chrF equal sacreBLEU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ROUGE equals rouge-score</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NLTK BLEU equals NLTK</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>app</name>
    <message>
        <source>Cannot open the session</source>
        <extracomment>``show(title, message)``: tells the user about an unexpected error.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A session file brings its own files: do not combine it with --sample, --src, --ref or --hyp.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unexpected error — Matchlight</source>
        <extracomment>How long a Python thread may hold the GIL while another one waits for it (Python&apos;s default is 5 ms). The GUI thread gives the GIL up at every call into Qt, and while the highlight thread computes rows it then waits up to the whole interval to get it back, at every call: a repaint of the table takes many times as long.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open the comparison</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>base</name>
    <message>
        <source> (lower is better)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>buckets</name>
    <message>
        <source>the reference</source>
        <extracomment>Bootstrap resamples and seed of the confidence intervals (compare-mt&apos;s count). A label column shows at most this many labels (the most frequent), then &quot;other&quot;. Width of a bucket&apos;s group of bars (the gap between groups is the rest of 1). The &quot;By&quot; choices that are not label columns. What a bucket of segments shows: the mean of the segment scores, or the corpus score. Where word frequencies come from: the reference, a count file, a training text. ``ask(parent, caption, start folder) -&gt; path or None``: the file dialog (injectable). The value shown is better lower (an MQM penalty&apos;s mean).</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the training corpus</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>word frequency in {where}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>word F-measure</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reference length (tokens)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>output length / reference length</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mean sentence {0}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>controller</name>
    <message>
        <source>The scoring settings are invalid: {exc}</source>
        <extracomment>``chunk_source(text, config, chunk_size=, first_chunk_size=, cancel=)`` -&gt; chunk iterator.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scoring ran out of memory. Try fewer systems or a smaller file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scoring failed: {detail} ({0}).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>exports</name>
    <message>
        <source>CSV files (*.csv)</source>
        <extracomment>``save_path_provider(parent, caption, suggested) -&gt; path or None``.</extracomment>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>filterbar</name>
    <message>
        <source>Invalid regular expression: {exc}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>fonts</name>
    <message>
        <source>Korean (Hangul)</source>
        <extracomment>Lines of each text column sampled for scripts. Distinct characters of a script checked for glyphs. ``has_glyph(character) -&gt; bool``: can an installed font draw it? Scripts that a default install may lack, with the Debian package that covers them.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Japanese (kana)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chinese characters (Han)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Thai</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Arabic</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hebrew</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Devanagari</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bengali</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tamil</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Georgian</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Armenian</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Khmer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ethiopic</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Greek</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cyrillic</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>jobs</name>
    <message>
        <source>Out of memory: try fewer rows or fewer resamples.</source>
        <extracomment>``work(cancelled, progress) -&gt; result``: ``cancelled()`` says stop (raise :class:`JobCancelled` or return None), ``progress(fraction)`` reports how far it got. Progress is reported in steps of at least this fraction (a bar needs no more).</extracomment>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>latexexport</name>
    <message>
        <source>Cannot export the LaTeX table</source>
        <extracomment>``ask_path(parent, caption, suggested) -&gt; path or None`` (the window&apos;s injectable dialog).</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>LaTeX files (*.tex);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>menus</name>
    <message>
        <source>&amp;Open comparison…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose source, references and system outputs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the &amp;sample</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundled German→English sample</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Export CSV (all rows)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per-sentence scores of every row, as matchlight score --csv writes them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export CSV (&amp;filtered rows)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per-sentence scores of the rows the filter keeps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scoring &amp;settings…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokenizers, smoothing, ROUGE options</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Cancel scoring</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop scoring; keep the rows so far</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Resume scoring</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Score the rows left when scoring was cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Find…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search the texts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Copy row</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the current row, every column, tab-separated with a header line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom &amp;in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Larger text in the table and pane</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom &amp;out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Smaller text in the table and pane</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Actual size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The application&apos;s text size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About Matchlight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The new interface language is used when Matchlight starts again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Highlight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Row height</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Scoring</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Main</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Highlight: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Baseline: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The system the Δ columns compare against</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>  Reference matches of: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Whose matches the reference cells show: any system, or one system</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>any system</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>model</name>
    <message>
        <source>no score</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>opendialog</name>
    <message>
        <source>documentation or checksums</source>
        <extracomment>The usual names of system outputs: ``sys.NAME.txt``, ``hyp.NAME``, ``out.NAME``... Files that come with a dataset but are none of its texts. Per-line metadata files of the usual dataset layouts (document ids, domains, labels...). The file stem without a ``sys.``-style prefix (the same rule as the CLI&apos;s). Why a dropped file was left out (the Open dialog groups its note by these).</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>per-line metadata, not a text to score</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a folder inside the dropped folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a hidden file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a second source file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not named src*, ref* or sys.*/hyp.*/out.* like the other files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Left out ({reason}): {0}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>palette</name>
    <message>
        <source>in the longest common subsequence</source>
        <extracomment>Highlight kinds understood by :func:`highlight_format`: core&apos;s range kinds, the hover link, and the marks of a system against the baseline (:data:`core.scoring.contrast.CONTRAST_KINDS`). Characters that would break a one-line table cell, each shown as one visible stand-in, so that character offsets stay exactly the same. The kinds an n-gram layer paints; what a legend shows when it is not told.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>missed by all systems</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this system</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the baseline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>matched by {system}, not by {baseline}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>matched by {baseline}, not by {system}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>reportexport</name>
    <message>
        <source>Cannot export the report</source>
        <extracomment>``ask_path(parent, caption, suggested) -&gt; path or None`` (the window&apos;s injectable dialog).</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTML pages (*.html *.htm);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>scalemenu</name>
    <message>
        <source>{0}: scale</source>
        <extracomment>The most decimals the menu offers.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Higher is better</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lower is better</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decimals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0}&apos;s scale is its metric&apos;s</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>separation</name>
    <message>
        <source>no rows are selected</source>
        <extracomment>Segments listed per side of &quot;what moves the corpus score&quot;. From this many rows on, the n-grams are counted in a worker process: counting them spends seconds in C calls that hold the GIL, which a thread would take from the window.</extracomment>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sessionopen</name>
    <message>
        <source>• {0} ({1}): not at </source>
        <extracomment>Imported files that changed or went missing since (their stored values are used). The file to list under Recent sessions once it is open (None: a read-only copy). The spans and scores, read in a thread of their own (None: read them when needed). Parts of the document that could not be used (the defaults are used instead).</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>These input files changed since the session was saved: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>These imported files changed since the session was saved; the values saved in the session are used: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file is damaged; what could be read is shown: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This is a read-only copy: use File ▸ Save session as… to keep working on it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The imported column {0!r} was not restored: {exc}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The saved row selection could not be applied: {exc}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>settings</name>
    <message>
        <source>default</source>
        <extracomment>Combo-box data standing for &quot;no separator&quot; (item data is never None: PySide6 6.12 on CPython 3.11 drops a reference to None whenever None item data comes back to Python). Spin-box bounds of an ``int`` setting without its own. The metrics&apos; groups are laid out in this many columns. The tallest the settings get before they scroll, in pixels.</extracomment>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>summary</name>
    <message>
        <source>No comparison open. Its corpus scores per system show here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sentence separator {shown}</source>
        <extracomment>The first refresh of a new table comes later, after the burst of work of showing it. The histogram&apos;s bins for a 0-100 score (another scale gets its own, see score_edges). Okabe–Ito colours as published (core&apos;s palette): distinguishable with the common colour-vision deficiencies; the report draws systems in the same ones. The histogram&apos;s x ticks, 100 included (pyqtgraph&apos;s automatic ones stop at 80). The clusters&apos; paired test: sacreBLEU&apos;s bootstrap, its default resamples and seed. The leak warning&apos;s colours (light, dark), as the comparison dock&apos;s.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>references in no clear language: outputs not checked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>than the references ({0})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>output in another language {language}: {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no output in another language {language}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no source file to find copies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>copying the source: {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none copying the source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Language check: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · </source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>theme</name>
    <message>
        <source>Matchlight chart</source>
        <extracomment>Export formats by file suffix. Width of exported PNGs, in pixels (a column of a two-column paper at 300 dpi is ~1000). What an exported SVG&apos;s text falls back to where its reader lacks the font it was drawn in: fonts of about its width, then the CSS generic family. Qt names only its own family, and a reader that does not know that name (Qt&apos;s &quot;Sans Serif&quot; alias is none of CSS&apos;s) draws serif.</extracomment>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
