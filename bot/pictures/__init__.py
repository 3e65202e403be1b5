"""Small pictures the bot draws itself with Pillow, and the application emojis made of them.

This package names no game: it draws generic things (die faces in any colour, rounded
shapes, text) and keeps a book of named emojis. Each game builds its own set from these
in `bot/games/<game>/pictures.py`.
"""
