"""Result-file integrity

Rules on whether per-item result files are what they claim to be: row
counts, reruns, partial credit, samples, clusters and harness limits (BA3xx).
"""
