"""The table service's pure parts, with no Discord and no storage in them: typed table settings, the
outcome of one commit and the follow-up plan derived from it. ``bot.sessions.SessionService`` does the
writes; cogs carry the plan out."""
