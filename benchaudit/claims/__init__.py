"""What documents claim: numbers, their roles and scopes, and the tables as score lines."""
