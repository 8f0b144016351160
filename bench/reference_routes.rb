# frozen_string_literal: true

# The reference's route search (18xx.games' auto-router, as the oracle in ../shared/oracle
# runs it) timed on the run positions of one log, for bench/routes.py.
#
#   ruby bench/reference_routes.rb ORACLE_DIR LOG REPEAT PATH_TIMEOUT COMBINE_TIMEOUT < positions
#
# stdin: one position a line, "ACTION_ID CORPORATION", in the log's order. The game is
# loaded once and moved forward to just before each position's action (as the site's
# history view does); there the router runs REPEAT times. One JSON line per position on
# stdout: action_id, corporation, revenue, timed_out, cpu (the least CPU seconds of a
# run: the router alone, the game's move forward not counted).

oracle_dir, log_path, repeat, path_timeout, combine_timeout = ARGV
require File.join(oracle_dir, 'ruby', 'boot')

def cpu_now
  Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
end

positions = $stdin.read.split("\n").map(&:split).reject(&:empty?)
data = JSON.parse(File.read(log_path))
game = nil
positions.each do |action_id, corporation|
  before = action_id.to_i - 1
  if game.nil?
    game = Engine::Game.load(data, at_action: before)
  else
    game.process_to_action(before)
  end
  corp = game.corporation_by_id(corporation)
  best = nil
  cpu = nil
  repeat.to_i.times do
    router = Engine::AutoRouter.new(game)
    started = cpu_now
    router.compute(corp, path_timeout: path_timeout.to_f, route_limit: 10_000,
                         combine_timeout: combine_timeout.to_f)
    spent = cpu_now - started
    cpu = spent if cpu.nil? || spent < cpu
    best = router.oracle_best || { revenue: 0, timed_out: false }
  end
  puts JSON.generate({ action_id: action_id.to_i, corporation: corporation, revenue: best[:revenue],
                       timed_out: best[:timed_out], cpu: cpu, error: game.exception&.message })
  $stdout.flush
end
