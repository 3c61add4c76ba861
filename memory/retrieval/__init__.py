"""The bot's query layer, read-only: which facts a message's context shows (context), the words search (words),
the nearest facts in meaning (meaning), the two fused (fusion) and the ranking of facts by score (ranking/)."""
