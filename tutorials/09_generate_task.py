"""Tutorial 09: GenerateTaskPrac, step by step (the paper's Figures 1 and 2, regenerated).

Where do training tasks come from? The bootstrap method before this paper walked k random steps back
from the goal and raised k every iteration (LengthInc). Too small a k teaches nothing new; too large
a k gives tasks the current heuristic cannot solve. GenerateTaskPrac (paper §3–4, Alg. 1 in its
practical form) lets the WUNN of tutorial 05 choose instead. Starting at the goal, it looks at every
state one move back, the candidates (the paper's E_undo(s): the states from which one move leads to
s; in these reversible domains E_rev(s), the states s leads to, tutorial 01), asks the WUNN for each
one's epistemic uncertainty σ_e, and samples the next state from softmax(σ_e): states the WUNN knows
less about are more likely. It stops at the first sampled state with σ_e ≥ ε = 1, and that state is
the new task's start. The walk therefore ends just past the edge of what has been learnt: a task a
little harder than the last ones.

Three details of the practical form, each answered below:
  * The previous state is left out of the candidates (as in the random walks of Arfaee et al. and
    tutorial 01). Stepping straight back undoes a move and wastes it. Without the exclusion the move
    back would be one candidate in four in the middle of the board and one in two in a corner, and
    the walk would dither near the goal instead of moving away from it.
  * MaxSteps. A walk through states the WUNN is sure about would never reach ε. The conceptual
    Alg. 1 ends it once every state has been visited, which needs a record of every state visited;
    the practical form caps the walk instead. It counts before each move and stops when the count
    reaches MaxSteps, so a capped walk makes MaxSteps − 1 moves, and the state it reached is the
    start, whatever its σ_e. `Task.steps` holds the count, as the authors' code logs it, so it means
    two things: when σ_e stopped the walk, the number of moves made; when the cap stopped it,
    MaxSteps, ONE MORE than the moves made (part 2 prints both). Below, "moves" are always moves.
  * Why a separate network. σ_e is the spread of K = 100 sampled outputs of the WUNN, so scoring a
    state costs about a hundred forward passes. IDA* scores millions of states per task; it plans
    with the ordinary FFNN, which costs one pass. The WUNN is asked only about the states along a
    generated walk and, while it trains, about the records of the memory buffer (§4; tutorial 08).

Run from the repository root:  python tutorials/09_generate_task.py
"""
import sys
import time
from dataclasses import replace

# The tutorials' helper (tutorials/course.py) first: it finds `la` and imports it before NumPy.
sys.path.insert(0, "tutorials")      # where a notebook started at the repository root finds it
from course import DOMAINS, ROOT, figure_path  # noqa: E402

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Rectangle

from la.config import LearnConfig, node_budget
from la.domains.names import make_domain
from la.domains.walk import random_walk
from la.features.encodings import encode
from la.heuristics.classical import Manhattan
from la.features import OneHot
from la.learn import Learner
from la.nn import FFNNConfig
from la.search import ida_star
from la.tasks import generate_task_prac

# %%
SEED = 7
COLUMN = 20                   # characters per board when boards are printed side by side
WALK_SEED = 4                 # the random numbers of the walk shown (exercise 1)
CAPPED = 5                    # part 2's short cap on the walk, MaxSteps (exercise 2)
EPSILON = 1.0                 # ε, the paper's (exercise 3)
puzzle = make_domain("15-puzzle")

# %%
# --- 1. A WUNN with a little training -------------------------------------------------------------
# The WUNN learns inside LearnHeuristicPrac's Update (tutorial 08). Here we drive the Update
# ourselves: after the first iteration (1-move tasks), five Updates on the plans of ten walks each,
# of 2, 4, 6, 8 and 10 moves (LengthInc = 2), solved with Manhattan distance, so that the planning
# network plays no part. The settings are those of the paper's EFFICIENCY experiment (§5: a
# one-output FFNN, no dropout); everything about task generation (ε, K = 100, MaxSteps, β0 = 0.05)
# keeps the paper's values; only β's decay γ = (1e-5/β0)^(1/NumIter) is steeper, as for a run of
# NumIter = 6 iterations.
config = replace(LearnConfig(), num_iter=6, node_limit=node_budget(1),
                 ffnn=FFNNConfig(n_out=1, dropout=0.0), epsilon=EPSILON)
print(f"MaxSteps: {config.max_steps} on the 15-puzzle, "
      f"{DOMAINS['24-pancake'].learn().max_steps} on the paper's other domains; "
      f"ε = {config.epsilon}, K = {config.wunn.K}")
began = time.perf_counter()
rng = np.random.default_rng(SEED)
learner = Learner(puzzle, config, rng, OneHot(puzzle))
learner.run_iteration()                                                       # the first iteration
print(f"the first iteration: {learner.log[-1]['solved']} tasks of 1 move solved, the WUNN trained "
      f"({time.perf_counter() - began:.0f} s)")
md = Manhattan(puzzle)
for length in (2, 4, 6, 8, 10):
    plans = [ida_star(puzzle, md, start).plan
             for start in random_walk(puzzle, length, rng, n=config.tasks_per_iter)]
    update = learner.update(plans, update_beta=True)
    print(f"an Update on ten plans of walks of {length} moves: {update['added']} new records, "
          f"WUNN {update['wunn_blocks']} blocks, β = {learner.beta:.2e} "
          f"({time.perf_counter() - began:.0f} s)")
print(f"the WUNN has trained on {len(learner.buffer)} records")


# %%
# --- 2. One walk, step by step --------------------------------------------------------------------
def direction(before, after):
    """Which way the blank moved between two states."""
    step = int(puzzle.blank(after[None])[0]) - int(puzzle.blank(before[None])[0])
    return {-4: "up", -1: "left", 1: "right", 4: "down"}[step]


def side_by_side(boards, titles, notes):
    """Boards as text, next to each other, each with a title above and a note below."""
    rows = [puzzle.format(b).split("\n") for b in boards]
    lines = ([titles] + [[rows[i][r] for i in range(len(boards))] for r in range(puzzle.width)]
             + [notes])
    return "\n".join("".join(cell.ljust(COLUMN) for cell in line).rstrip() for line in lines)


epsilon = config.epsilon
task = generate_task_prac(puzzle, learner.wunn, np.random.default_rng(WALK_SEED), epsilon,
                          config.max_steps, config.wunn.K, trace=True, encoding=learner.encoding)
print(f"\nGenerateTaskPrac from the goal, ε = {epsilon}: at each step, the predecessors of the "
      f"current state except the one we came from,\ntheir σ_e (K = {config.wunn.K} WUNN samples) "
      f"and softmax(σ_e); * marks the sampled one")
for i, s in enumerate(task.trace):
    titles = (["goal" if i == 0 else f"after move {i}"]
              + [f"blank {direction(s['state'], c)}" for c in s["candidates"]])
    notes = [""] + [f"σ_e {e:.2f} p {p:.2f}{' *' if j == s['chosen'] else ''}"
                    for j, (e, p) in enumerate(zip(s["sigma_e"], s["p"]))]
    print(f"\nmove {i + 1}")
    print(side_by_side([s["state"], *s["candidates"]], titles, notes))
chosen = np.array([s["sigma_e"][s["chosen"]] for s in task.trace])
# the walk's states, (steps, 16)
path = np.array([s["candidates"][s["chosen"]] for s in task.trace])
print(f"\nstopped after {len(task.trace)} moves (Task.steps = {task.steps}): "
      f"the sampled state has σ_e = {chosen[-1]:.2f} >= ε, and becomes the task's start")
p_most = np.mean([s["p"].max() for s in task.trace])
print(f"the most likely candidate had p = {p_most:.2f} on average (uniform would be "
      f"{np.mean([1 / len(s['p']) for s in task.trace]):.2f}): "
      f"softmax over σ_e of order 1 is a gentle push, not a greedy choice")

# MaxSteps: the same walk with a cap of CAPPED makes CAPPED − 1 moves, and ends at a state the WUNN
# may still know.
capped = generate_task_prac(puzzle, learner.wunn, np.random.default_rng(WALK_SEED), epsilon, CAPPED,
                            config.wunn.K, trace=True, encoding=learner.encoding)
last = capped.trace[-1]["sigma_e"][capped.trace[-1]["chosen"]]
print(f"with MaxSteps = {CAPPED} the walk stops after {len(capped.trace)} moves "
      f"(Task.steps = {capped.steps}) at a state with σ_e = {last:.2f}"
      + (" < ε: it is the task's start all the same" if last < epsilon else ""))

# %%
# --- 3. Why the WUNN does not plan ----------------------------------------------------------------
probe = encode(puzzle, np.repeat(path, 10_000 // len(path) + 1, axis=0)[:10_000])

def fastest(work, repeat=3):
    """The shortest of `repeat` timings of work(), in seconds (on a busy machine the others include
    waiting)."""
    times = []
    for _ in range(repeat):
        timer = time.perf_counter()
        work()
        times.append(time.perf_counter() - timer)
    return min(times)


ffnn_seconds = fastest(lambda: learner.ffnn.predict(probe))
wunn_seconds = fastest(lambda: learner.wunn.predict(probe, config.wunn.K, np.random.default_rng(0)))
print(f"\nscoring 10,000 states: FFNN {ffnn_seconds * 1e3:.1f} ms, WUNN with K = {config.wunn.K} "
      f"{wunn_seconds * 1e3:.0f} ms ({wunn_seconds / ffnn_seconds:.0f}x): an IDA* scoring with "
      f"the WUNN could not pass {1e4 / wunn_seconds / 1e3:.0f} thousand nodes a second")

# %%
# --- 4. Figure 2: train on the task, then walk again ----------------------------------------------
# LearnHeuristicPrac would now solve the task and Update on the plan: the WUNN trains until
# σ_e < √(κε) = 0.8 on every record in the buffer, the new start included. We do exactly that for
# this one task (solved with Manhattan distance, as above). σ_e from K = 100 samples is itself noisy
# (tutorial 05 measured how far it strays from the closed form), which is why the Update aims below
# ε (tutorial 08); to compare before and after without that noise we use the closed form of
# tutorial 05.
result = ida_star(puzzle, md, task.start)
before = learner.wunn.predict_exact(encode(puzzle, path))[1]
update = learner.update([result.plan], update_beta=True)
after = learner.wunn.predict_exact(encode(puzzle, path))[1]
print(f"\nthe task's optimal cost is {result.cost}; the Update adds {update['added']} records "
      f"and trains the WUNN for {update['wunn_blocks']} blocks of 50 steps")
print("σ_e of the walk's states (closed form), before → after: "
      + ", ".join(f"{b:.2f}→{a:.2f}" for b, a in zip(before, after)))
# The same random numbers: as long as the walk visits the same states, it draws the same noise for
# σ_e and the same uniform number for each choice, so it repeats its choices unless the
# probabilities moved a lot.
again = generate_task_prac(puzzle, learner.wunn, np.random.default_rng(WALK_SEED), epsilon,
                           config.max_steps, config.wunn.K, trace=True, encoding=learner.encoding)
path_again = np.array([s["candidates"][s["chosen"]] for s in again.trace])
shared = next((i for i in range(min(len(path), len(path_again)))
               if not (path[i] == path_again[i]).all()),
              min(len(path), len(path_again)))
chosen_again = np.array([s["sigma_e"][s["chosen"]] for s in again.trace])
print(f"the walk again, with the same random numbers: its first {shared} moves are the old walk's "
      f"{'(all of them: it passes the old start) ' if shared == len(task.trace) else ''}"
      f"and it stops after {len(again.trace)} moves, at σ_e = {chosen_again[-1]:.2f}")


# %%
# --- figure ---------------------------------------------------------------------------------------
def draw_board(ax, state, frame=None, note=None):
    """A 4x4 board on an axis, the blank grey; a coloured frame and a note underneath if given."""
    w = puzzle.width
    for pos, tile in enumerate(state):
        r, c = divmod(pos, w)
        ax.add_patch(Rectangle((c, w - 1 - r), 1, 1, facecolor="0.8" if tile == 0 else "white",
                               edgecolor="0.4", lw=0.6))
        if tile:
            ax.text(c + 0.5, w - 0.5 - r, str(tile), ha="center", va="center", fontsize=7)
    if frame:
        ax.add_patch(Rectangle((0, 0), w, w, fill=False, edgecolor=frame, lw=3))
    if note:
        ax.set_xlabel(note, fontsize=7, labelpad=2)
    ax.set(xlim=(-0.1, w + 0.1), ylim=(-0.1, w + 0.1), aspect="equal", xticks=[], yticks=[])
    for spine in ax.spines.values():
        spine.set_visible(False)


steps = len(task.trace)
fig = plt.figure(figsize=(1.35 * (steps + 1), 6.6))
grid = fig.add_gridspec(4, steps + 1, height_ratios=[1, 1, 1, 1.5])
draw_board(fig.add_subplot(grid[0, 0]), puzzle.goal, note="the goal")
for i, s in enumerate(task.trace):
    for j, c in enumerate(s["candidates"]):
        ax = fig.add_subplot(grid[j, i + 1])
        last = i == steps - 1 and j == s["chosen"]
        frame = ("red" if last else "C0") if j == s["chosen"] else None
        draw_board(ax, c, frame, f"σ_e {s['sigma_e'][j]:.2f}   p {s['p'][j]:.2f}")
        if j == 0:
            ax.set_title(f"move {i + 1}", fontsize=8)
        if last:
            ax.set_title(f"move {i + 1}: start", fontsize=8, color="red")
ax = fig.add_subplot(grid[3, :])
x = np.arange(1, steps + 1)
ax.plot(x, chosen, "o", color="C0", label="σ_e the walk sampled (K = 100) at each move (Fig. 1)")
ax.plot(x, before, "-", color="C0", label="the same states, closed form")
ax.plot(x, after, "s--", color="C1", label="... after one Update on the task's plan")
ax.plot(range(1, len(again.trace) + 1), chosen_again, ".:", color="C2",
        label=f"the walk re-run with the same random numbers (Fig. 2): {len(again.trace)} moves")
ax.axhline(epsilon, color="r", lw=0.8, label="ε = 1: the walk stops here")
ax.axhline(config.sigma_e_target, color="m", lw=0.8, ls=":",
           label="0.8 = √(κε): the Update's target")
ax.set(xlabel="move of the walk", ylabel="σ_e", xlim=(0.5, max(steps, len(again.trace)) + 0.5))
ax.legend(fontsize=7, loc="lower right", ncol=2)
fig.suptitle("GenerateTaskPrac on the 15-puzzle: candidates one move back, their σ_e and "
             "softmax probability p, the sampled one framed (red: the task's start)", fontsize=9)
fig.tight_layout()
out = figure_path("09_generate_task")  # figures/tutorials/, ignored by git
fig.savefig(out, dpi=110)
print(f"saved {out.relative_to(ROOT)}")

# %%
# --- the point, loosely: each claim above, checked ------------------------------------------------
assert chosen[-1] >= epsilon and (chosen[:-1] < epsilon).all(), (
    "the walk stops at the first state with σ_e >= ε")
assert task.steps == len(task.trace), "when σ_e stops the walk, Task.steps counts its moves"
assert len(capped.trace) == min(CAPPED - 1, len(task.trace)), (
    "a cap of MaxSteps makes at most MaxSteps − 1 moves")
assert len(capped.trace) == len(task.trace) or capped.steps == CAPPED, (
    "... and then Task.steps is MaxSteps")
assert wunn_seconds > 10 * ffnn_seconds, "the WUNN scores states far more slowly than the FFNN"
assert after[-1] < epsilon, "after the Update the old start should no longer count as unknown"
assert len(again.trace) > len(task.trace), (
    "after training on the task, the same walk should go further")

# %%
# --- exercises ------------------------------------------------------------------------------------
# 1. Set WALK_SEED = 5: another walk, of another length; it still stops at the first state with
#    σ_e >= ε, and after the Update the same random numbers still lead further.
# 2. Set CAPPED = 3: the capped walk makes 2 moves and Task.steps says 3.
# 3. Set EPSILON = 0.8. Two things change: the walk stops at the first state with σ_e >= 0.8, but
#    part 1's Updates also train the WUNN further, to σ_e < √(0.64·0.8) = 0.72, so σ_e is lower
#    everywhere. Here the second wins: the walk gets longer, not shorter.
