"""A self-contained HTML report of a comparison: the app's export and ``matchlight report``
(whose command line is :mod:`core.cli.report`).

Everything in the page is computed by ``core`` (corpus figures, significance, buckets, highlight
spans, MQM) and written into one HTML file with inline styles and inline SVG charts: it opens
with no network and no other file, and every piece of user data in it is escaped text.
"""
