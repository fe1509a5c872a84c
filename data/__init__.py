"""What is stored and what is shipped: the SQLite database and the battlefield files."""
