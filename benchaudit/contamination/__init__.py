"""Contamination audit: benchmark items against training shards."""
