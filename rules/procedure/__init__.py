"""Measurement procedure

Rules on how a score was measured: chance levels, pass@k, metrics across
scale, judges, calibration, contamination (BA4xx).
"""
