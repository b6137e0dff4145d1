#!lua
-- Appends one chunk of a product's enter events to its line, in log order and exactly once.
-- KEYS[1] waiting:{p}   KEYS[2] entry:{p}   KEYS[3] gone:{p}   KEYS[4] stats:{p}   KEYS[5] queue:{p}
-- KEYS[6] seen:{p} (only written when the queue has abandonAfterSeconds)
-- ARGV[1] the field of stats:{p} that holds the last offset applied from the chunk's partition
--         ('applied:<topic>:<partition>')
-- ARGV[2] the offset the previous chunk of this product and partition ended at, or -1 when the writer does not
--         know it (the first chunk of a consumer batch: every batch before it is in, or it would not have run)
-- ARGV[3] the offsets of the users' records, ascending, comma-separated (one record may hold several users)
-- ARGV[4] the run_id of the Redis process the writer restored the sale for (or found its lines whole on) when its
--         partitions were assigned, or '' when it knows none
-- ARGV[5..] user ids, in log order; a user of the priority lane with '+' before the id (LineChunk.PRIORITY_MARK)
-- Returns {added, applied}: how many joined the line and the partition's applied offset afterwards; {-1, applied}
-- when the chunk is refused and nothing was written; {-2, applied} when nothing was written because the Redis process
-- holding the line is not the one that last appended to it (restarted or failed over since) and neither the line
-- nor the writer was restored for it yet.
--
-- The writer sends several chunks before the first answers, so the line must not rely on them arriving whole
-- and in order. The applied offset is stored with the line, in the same step as the append: a chunk whose
-- predecessor is not in (it failed, or was refused) is refused too, so nobody later gets ahead of it; records at
-- or below the applied offset are skipped, so a redelivered or overlapping chunk changes nothing. A user who
-- already waits, holds an entry or whose place is gone (left, expired, used) is skipped too: a re-entry or a late
-- event of someone who left while pending never brings them back. The score is the product's own sequence, so
-- ties and clocks never reorder anyone. A priority user's score is the sequence minus 2^53: below every general
-- place and every fair start's re-placed early entrant (at least -2^52, lib/fair_start.lua), so the priority lane is
-- admitted first, in log order within it, and the opening's shuffle (scores above 0) never touches it. Both are exact
-- in a double.
-- With abandonAfterSeconds set, joining counts as being seen (Redis TIME): a user who never polls loses the place
-- that long after the line had it. With opensAt set and not yet reached (Redis TIME), the users are early entrants:
-- stats:{p} earlySeq records the last of them, for the shuffle at the opening (admit_batch.lua).
-- stats:{p} run holds the run_id of the Redis process that last appended (INFO server). A restarted or promoted
-- Redis keeps its data but may have lost its last writes (AOF everysec, asynchronous replication): it is a prefix of
-- the history the writer confirmed, and an append on top of it would record an applied offset beyond the lost
-- records, so that the replay skips them for good. It appends nothing until the restore (finish_restore.lua) has
-- stamped the line with the new run_id, or until a writer that restored the sale for this process names it in
-- ARGV[4]: that writer reads the log again from the start, so what the line lacks comes first. The second way is for
-- a line that no durable record but its enters names (no queue setting, booking, leave or admission), which the
-- restore cannot know and never stamps: refused for good, it kept the writer restoring after a failover and every
-- enter behind it PENDING. A chunk sent before the writer noticed the new process names the old one and is still
-- refused. One INFO per chunk, never per user.
-- The #!lua line makes Redis refuse the script before it starts when out of memory, never halfway through.
-- now_ms and time_ms are the shared clock (lib/clock.lua), which QueueScripts puts before this script.
local stored = redis.call('HMGET', KEYS[4], ARGV[1], 'seq', 'run')
local applied = tonumber(stored[1] or '-1')
local run = run_id()
if stored[3] and stored[3] ~= run and ARGV[4] ~= run then
  return {-2, applied}
end
if applied < tonumber(ARGV[2]) then
  return {-1, applied}
end
local offsets = ARGV[3]
local last = tonumber(string.match(offsets, '%d+$'))
if applied >= last then
  return {0, applied}
end

-- The first user not applied yet; only an overlapping redelivery needs the offsets one by one.
local from = 5
if applied >= tonumber(string.match(offsets, '^%d+')) then
  for offset in string.gmatch(offsets, '%d+') do
    if tonumber(offset) > applied then
      break
    end
    from = from + 1
  end
end

-- The users to apply, unmarked, and which of them are in the priority lane.
local users = {}
local priority = {}
for i = from, #ARGV do
  local user = ARGV[i]
  if string.byte(user, 1) == 43 then
    user = string.sub(user, 2)
    priority[user] = true
  end
  users[#users + 1] = user
end

-- Who is placed already, asked in slices: unpack() has a limit of a few thousand values.
local placed = {}
local withEntry = redis.call('EXISTS', KEYS[2]) == 1
local withGone = redis.call('EXISTS', KEYS[3]) == 1
for first = 1, #users, 1000 do
  local final = math.min(first + 999, #users)
  local scores = redis.call('ZMSCORE', KEYS[1], unpack(users, first, final))
  local entries = withEntry and redis.call('ZMSCORE', KEYS[2], unpack(users, first, final))
  local gone = withGone and redis.call('SMISMEMBER', KEYS[3], unpack(users, first, final))
  for i = 1, final - first + 1 do
    if scores[i] or (entries and entries[i]) or (gone and gone[i] == 1) then
      placed[users[first + i - 1]] = true
    end
  end
end

local seq = tonumber(stored[2] or '0')
local added = 0
local args = {}
local n = 0
local tracked = nil
local early = false
local queue = redis.call('HMGET', KEYS[5], 'abandonAfterSeconds', 'opensAt', 'deletedAt')
if queue[3] then
  -- the queue was deleted: its last enters read EXPIRED, as its line does (admit_batch.lua)
  for first = 1, #users, 1000 do
    redis.call('SADD', KEYS[3], unpack(users, first, math.min(first + 999, #users)))
  end
  redis.call('HSET', KEYS[4], ARGV[1], last, 'seq', seq, 'run', run)
  return {0, last}
end
if queue[1] or queue[2] then
  local now = time_ms()
  if queue[1] then
    tracked = {now = now, args = {}, n = 0}
  end
  early = queue[2] and now < tonumber(queue[2])
end
for i = 1, #users do
  local user = users[i]
  if not placed[user] then
    -- also keeps the second of two events of one user in this chunk out
    placed[user] = true
    seq = seq + 1
    added = added + 1
    args[n + 1] = priority[user] and seq - 9007199254740992 or seq
    args[n + 2] = user
    n = n + 2
    if n >= 2000 then
      redis.call('ZADD', KEYS[1], unpack(args, 1, n))
      n = 0
    end
    if tracked then
      tracked.args[tracked.n + 1] = tracked.now
      tracked.args[tracked.n + 2] = user
      tracked.n = tracked.n + 2
      if tracked.n >= 2000 then
        redis.call('ZADD', KEYS[6], 'NX', unpack(tracked.args, 1, tracked.n))
        tracked.n = 0
      end
    end
  end
end
if n > 0 then
  redis.call('ZADD', KEYS[1], unpack(args, 1, n))
end
if tracked and tracked.n > 0 then
  redis.call('ZADD', KEYS[6], 'NX', unpack(tracked.args, 1, tracked.n))
end
if added > 0 then
  redis.call('HINCRBY', KEYS[4], 'enteredTotal', added)
  if early then
    -- everyone up to this sequence joined before the opening: the admission step shuffles them when it comes
    redis.call('HSET', KEYS[4], 'earlySeq', seq)
  end
end
redis.call('HSET', KEYS[4], ARGV[1], last, 'seq', seq, 'run', run)
return {added, last}
