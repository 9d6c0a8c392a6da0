"""Fold long output: each kind of line once, with exact counts and line ranges; anomalies whole."""
