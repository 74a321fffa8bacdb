"""Error annotation in the app (MQM and ESA spans, keys, imports, agreement) and session files."""
