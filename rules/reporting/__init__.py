"""Reporting and emphasis

Rules on how a single score is reported: whether it is reachable, its precision,
its interval, its unit, and what a document's emphasis and claims rest on
(BA1xx, BA6xx).
"""
