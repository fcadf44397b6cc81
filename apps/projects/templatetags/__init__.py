"""Template tags of the projects app: `{% load figure_terms %}` and `{% load engine_words %}`."""
