"""The rules of Wizard (docs/rules.md sections 5 and 6) as kernels over card ids and uint64 masks.

Summary of what the kernels implement (docs/rules.md is the authority):

- The led suit of a trick is set by its first card that is not a Jester: a suited card sets its suit;
  a Wizard frees the trick (no led suit, anyone may play anything); while only Jesters are down there
  is no led suit yet.
- A player must follow the led suit when holding it, but may always play a Wizard or a Jester.
- The trick goes to the first Wizard; else the highest trump; else the highest card of the led suit;
  else (all Jesters) the first Jester.
- Score: exactly the bid gives 20 + 10 per trick; otherwise -10 per trick of difference.

``kernels`` holds the jitted versions, ``reference`` their plain-Python twins written from the text,
and ``api`` the checked public wrappers ``trick_winner``, ``legal_plays`` and ``score``.
"""
