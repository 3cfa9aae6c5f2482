"""Suppressions

Rules on benchaudit's own suppression comments and ignores (BA9xx).
"""
