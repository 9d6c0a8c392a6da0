"""Shell command lines as data: a lexer (tokens with spans) and compound-command structure."""
