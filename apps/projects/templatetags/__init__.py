"""Template tags of the projects app: `{% load figures %}` formats numbers for people."""
