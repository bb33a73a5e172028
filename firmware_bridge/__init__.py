"""The serial link to the dice table's microcontroller board, and the board's firmware."""
