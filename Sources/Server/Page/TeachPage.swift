/// The teaching page: the sampling-bias lesson with sliders. The true day (every waking
/// moment) beside the picture the answers give, and how far their mean lands from the truth.
enum TeachPage {
  static let html = #"""
    <!DOCTYPE html>
    <html lang="en"><head><meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>esmsim: the sampling-bias lesson</title><link rel="stylesheet" href="/app.css"></head>
    <body data-page="teach">
    <header><h1>Where do the answers miss the truth?</h1><nav><a href="/">Planner</a> · <a href="/teach" aria-current="page">Teaching: sampling bias</a></nav>
    <p id="status" role="status">Starting…</p></header>
    <main>
    <form id="form" autocomplete="off">
      <p class="note">300 simulated people, two weeks, Mappiness' random prompts. Their mood drifts through each day, higher with friends and at sport, lower at work and on the road; esmsim knows the true mean of every waking minute.</p>
      <fieldset><legend>The protocol</legend>
        <label>Prompts a day <input name="per_day" type="range" min="1" max="12" value="5"> <output></output></label>
        <label>Window from <input name="start" type="time" value="08:00"></label>
        <label>to <input name="end" type="time" value="22:00"></label>
        <label>Answerable for, min <input name="expiry" type="range" min="5" max="120" step="5" value="60"> <output></output></label>
      </fieldset>
      <fieldset><legend>The people</legend>
        <label>Happier moments answered more <input name="dependence" type="range" min="-1.5" max="1.5" step="0.1" value="0"> <output></output></label>
        <p class="hint">0: whether someone answers has nothing to do with their mood. Above 0, good moods answer more often (Rintala et al. 2020 found this), below 0 the reverse; as many answers either way.</p>
      </fieldset>
      <details id="yamlBox"><summary>The scenario as YAML</summary><textarea id="yaml" spellcheck="false" rows="14" readonly></textarea><p class="hint" id="yamlMode"></p></details>
    </form>
    <section id="results" aria-live="polite">
      <div id="error" class="error" hidden></div><div id="warnings" class="warnings" hidden></div>
      <h2>The true day beside the answered picture</h2>
      <p class="note">Green: the true mood by hour of the day, over every waking minute of everyone (hours when few are awake left out). Blue: the mean of the answers given in that hour. The dashed lines are the two means; their gap, given above the chart, is the sampling bias.</p>
      <p class="note">Why a gap even at 0 (answering unrelated to mood): the truth is every waking minute, but prompts fall only inside the window and are answered more at some hours and in some places than others (asleep, driving, at work). Mood moves with the hour and the place, so the answers over-represent some moods although nobody chooses by mood. Narrow the window or shorten the answerable time and watch the gap.</p>
      <div id="truth" class="charts"></div><div id="figures"></div>
      <h2>Where the answers come from</h2><div id="uniformity" class="charts"></div>
      <h2>At a glance</h2><div id="cards" class="cards"></div>
    </section>
    </main>
    <script src="/app.js"></script></body></html>
    """#
}
