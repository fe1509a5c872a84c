"""Series of combats (issue #38 item 9): round robin, Swiss or single elimination over several
duels, paired and created by the bot round after round until a final table."""
