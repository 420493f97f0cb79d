import Measures
import Presentation

/// The planner's page: a form on the left, the results on the right (stacked on a phone).
/// The script (``PlannerScript``) turns the form into a scenario and asks the server to run it.
enum PlannerPage {
  /// A caption under a chart, escaped (``Captions``).
  static func note(_ text: String) -> String { "<p class=\"note\">" + HTML.escape(text) + "</p>" }

  static let html = #"""
    <!DOCTYPE html>
    <html lang="en"><head><meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>esmsim planner</title><link rel="stylesheet" href="/app.css"></head>
    <body data-page="planner">
    <header><h1>esmsim planner</h1><nav><a href="/" aria-current="page">Planner</a> · <a href="/teach">Teaching: sampling bias</a></nav>
    <p id="status" role="status">Starting…</p><a id="toForm" class="jump" href="#form">Change the study ↓</a></header>
    <main>
    <form id="form" autocomplete="off">
      <a class="jump back" href="#results">↑ Results</a>
      <fieldset><legend>Study</legend>
        <label>Participants <input name="participants" type="number" min="1" max="5000"></label>
        <label>Days <input name="days" type="number" min="1" max="365"></label>
        <label>Seed <input name="seed" type="number" min="0"></label>
        <label title="The answers each participant should give: the share reaching it is the headline figure (protocol.answers_target in a scenario)">Answers target <input name="answers_target" type="number" min="1" max="10000"></label>
        <label title="Who joins: the people fitted to a real study of esmsim's corpus (population.compliance.preset in a scenario); they answer as differently as studies do">People <select name="people"><option value="">esmsim's defaults</option></select></label>
      </fieldset>
      <fieldset id="protocolA"><legend>Protocol</legend>
        <label>Platform preset <select name="preset"><option value="">none (esmsim's defaults)</option></select></label>
        <p class="hint" id="presetNote" aria-live="polite"></p>
        <div class="imported" hidden><p>Protocol from <b class="import-name"></b> (<span class="import-kind"></span>). <button type="button" class="remove-import">Remove</button></p></div>
        <div class="schedule-fields"></div>
      </fieldset>
      <fieldset><legend>Compare</legend>
        <label class="check"><input name="compare" type="checkbox"> A second protocol on the same people</label>
        <div id="protocolB" hidden><div class="schedule-fields"></div></div>
      </fieldset>
      <fieldset><legend>Sensors</legend>
        <label class="check"><input name="sensor_location" type="checkbox"> location every 3 min</label>
        <label class="check"><input name="sensor_accelerometer" type="checkbox"> accelerometer</label>
        <label class="check"><input name="sensor_battery" type="checkbox"> battery</label>
      </fieldset>
      <fieldset><legend>Phones</legend>
        <label>iPhones <input name="ios" type="range" min="0" max="100"> <output name="ios_out"></output></label>
        <div id="devices"></div>
      </fieldset>
      <fieldset><legend>Files from your computer</legend>
        <label>Scenario (YAML or JSON) <input id="scenarioFile" type="file" accept=".yaml,.yml,.json"></label>
        <label>AWARE schedule or ESMira study (JSON) <input id="importFile" type="file" accept=".json"></label>
      </fieldset>
      <fieldset><legend>Export</legend>
        <button type="button" id="exportYaml">Download scenario.yaml</button>
        <button type="button" id="exportResults">Download results (zip)</button>
        <p class="hint">The YAML is what <code>esmsim run scenario.yaml -o results</code> reads; keep an uploaded schedule beside it.</p>
      </fieldset>
      <details id="yamlBox"><summary>The scenario as YAML (edit to run it as written)</summary>
        <textarea id="yaml" spellcheck="false" rows="18"></textarea>
        <p class="hint" id="yamlMode"></p></details>
    </form>
    <section id="results" aria-live="polite">
      <div id="error" class="error" hidden></div><div id="warnings" class="warnings" hidden></div>
      <h2>At a glance</h2><div id="cards" class="cards"></div>
      <h2>How many answers will each participant give?</h2>\#(note(Captions.answers))<div id="answers" class="charts"></div>
      <h3>How many days until they reach the target?</h3>\#(note(Captions.reaching))<div id="reaching" class="charts"></div>
      <h2>What became of the prompts</h2>\#(note(Captions.fate))<div id="fate" class="charts"></div>
      <h2>iPhone against Android</h2>\#(note(Captions.osSplit))<div id="os" class="charts"></div>
      <h2>A participant's week</h2>
      <p class="note">Participant <button type="button" id="prev" aria-label="previous participant">◀</button>
        <input id="who" type="number" min="1" value="1" aria-label="participant"> <button type="button" id="next" aria-label="next participant">▶</button>
        — where they were (top band), what the phone and the app were doing (thin band), each prompt at its time: filled answered, a ring missed (tap or click it for its story).</p>
      <div id="week" class="charts"></div>
      <p id="story" class="story" aria-live="polite">Tap or click a prompt or a band for its story.</p>
      <h2>When prompts fall and are answered</h2>\#(note(Captions.intensity + " " + Captions.compliance))<div id="uniformity" class="charts"></div>
      <h2>Predictability and sampling bias</h2>\#(note(Captions.predictability(stableDays: ScheduleSummary.stableHeldOutDays) + " " + Captions.bias))<div id="shared" class="charts"></div>
      <h2>Coverage by device</h2>\#(note(Captions.coverage))<div id="coverage"></div>
      \#(note(Captions.sources))
    </section>
    </main>
    <script src="/app.js"></script></body></html>
    """#
}
