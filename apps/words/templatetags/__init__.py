"""Template tags of the words app: `{% load figures %}` and `{% load dates %}`."""
