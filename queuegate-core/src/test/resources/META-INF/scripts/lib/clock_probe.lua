-- Answers the shared clock's now for ARGV[1] (a fixed now, or 0 for Redis TIME). KEYS[1] any key, for routing.
return now_ms(tonumber(ARGV[1]))
