"""Leaderboards, arenas and judges

Rules on leaderboards, pairwise battles and judge files (BA5xx).
"""
