"""Comparisons

Rules on claims that one model differs from another: noise, pairing, tests,
power, multiplicity, selection and ranks (BA2xx).
"""
