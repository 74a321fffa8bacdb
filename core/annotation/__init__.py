"""Error annotation: MQM/ESA error spans, typologies, severity weights and their scores."""
