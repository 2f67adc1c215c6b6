"""The REST edge of tables: parse a request, call one service or selector, render."""
