/// The page's script: the form becomes a scenario (YAML, exactly what `esmsim run` reads),
/// sent to `/api/run` on every change (debounced); the answer's figures replace the old ones.
/// No library, nothing from another site.
enum PlannerScript {
  static let js = #"""
    "use strict";
    const $ = (s, r = document) => r.querySelector(s);
    const page = document.body.dataset.page;
    // The schedulers, gap rules, device kinds and presets with their labels, what each
    // preset sets of the form, and the form's starting study (the quickstart's): esmsim's own
    // lists (GET /api/choices), restated nowhere here.
    let CHOICES = {algorithms: [], gap_methods: [], devices: [], presets: [], people: [], start: {a_: {}, b_: {}, devices: {}}};
    let files = {}, importKey = null, importName = null, yamlMode = false, sequence = 0, timer = null;

    function scheduleFields(p) {
      const opts = (xs, v) => xs.map(x => `<option value="${x.name}"${x.name === v ? " selected" : ""}>${x.label}</option>`).join("");
      const s = CHOICES.start[p];
      return `<label>Schedule <select name="${p}algorithm">${opts(CHOICES.algorithms, s.algorithm)}</select></label>
        <label>Prompts a day <input name="${p}per_day" type="number" min="1" max="48" step="1" value="${s.per_day}"></label>
        <label class="only fixed-blocks">Minimum gap, min <input name="${p}min_gap" type="number" min="0" max="600" value="${s.min_gap}"></label>
        <label class="only fixed-blocks">Gap rule <select name="${p}gap_method">${opts(CHOICES.gap_methods, s.gap_method)}</select></label>
        <label class="only fixed-times">Times <input name="${p}times" type="text" value="${s.times}"></label>
        <label>Weekdays <input name="${p}weekdays" type="text" placeholder="every day" value="${s.weekdays}"></label>
        <label>Window from <input name="${p}start" type="time" value="${s.start}"></label>
        <label>to <input name="${p}end" type="time" value="${s.end}"></label>
        <label>Answerable for, min <input name="${p}expiry" type="number" min="1" max="1440" value="${s.expiry}"></label>
        <label class="check"><input name="${p}until_next" type="checkbox"${s.until_next ? " checked" : ""}> until the next prompt</label>
        <label>Reminders <input name="${p}rem_count" type="number" min="0" max="20" value="${s.rem_count}"></label>
        <label>every, min <input name="${p}rem_interval" type="number" min="1" max="1440" value="${s.rem_interval}"></label>`;
    }
    const val = n => { const e = $(`[name="${n}"]`); return !e ? "" : e.type === "checkbox" ? e.checked : e.value.trim(); };
    const quote = s => JSON.stringify(String(s));

    function protocolLines(p, pad) {
      const alg = val(p + "algorithm");
      const s = [`algorithm: ${alg}`];
      if (alg !== "fixed-times") s.push(`per_day: ${Number(val(p + "per_day")) || 1}`);
      if (alg === "fixed-blocks") s.push(`min_gap: ${Number(val(p + "min_gap")) || 0}m`, `gap_method: ${val(p + "gap_method")}`);
      if (alg === "fixed-times") s.push(`times: [${val(p + "times").split(/[ ,]+/).filter(Boolean).map(quote).join(", ")}]`);
      const days = val(p + "weekdays").split(/[ ,]+/).filter(Boolean);
      if (days.length) s.push(`weekdays: [${days.join(", ")}]`);
      const out = [`window: ${quote(val(p + "start") + "-" + val(p + "end"))}`, `schedule: {${s.join(", ")}}`,
        `expiry: ${val(p + "until_next") ? "until_next" : (Number(val(p + "expiry")) || 15) + "m"}`,
        `reminders: {count: ${Number(val(p + "rem_count")) || 0}, interval: ${Number(val(p + "rem_interval")) || 10}m}`];
      return out.map(l => pad + l);
    }
    function describe(p) {
      const alg = val(p + "algorithm");
      return alg === "fixed-times" ? `fixed times ${val(p + "times")}` : `${alg}, ${val(p + "per_day")} a day`;
    }

    function formYaml() {
      const shares = CHOICES.devices.map(d => [d.name, Number(val("dev_" + d.name)) || 0]).filter(x => x[1] > 0);
      const ios = (Number(val("ios")) || 0) / 100;
      const y = [`# Made by the esmsim planner: esmsim run scenario.yaml --output results`,
        `name: ${quote(page === "teach" ? "Teaching: sampling bias" : "Planner study")}`,
        `seed: ${Number(val("seed")) || 1}`, `duration: ${Number(val("days")) || 14}d`, `population:`,
        `  size: ${Number(val("participants")) || 1}`,
        `  os: {ios: ${+ios.toFixed(2)}, android: ${+(1 - ios).toFixed(2)}}`,
        `  devices: {${shares.map(([k, v]) => `${k}: ${v}`).join(", ")}}`];
      if (val("people")) y.push(`  compliance: {preset: ${val("people")}}`);
      y.push(`protocol:`);
      if (val("preset")) y.push(`  preset: ${val("preset")}`);
      const compare = val("compare");
      if (importKey && !compare) y.push(`  ${importKey}: ${quote(importName)}`);
      if (!importKey) y.push(...protocolLines("a_", "  "));
      if (page !== "teach") y.push(`  answers_target: ${Math.max(1, Math.round(Number(val("answers_target")) || Number(document.querySelector("[name=answers_target]").defaultValue)))}`);
      const sensors = ["location", "accelerometer", "battery"].filter(s => val("sensor_" + s));
      if (sensors.length) y.push("  sensors:", ...sensors.map(s => s === "location" ? "    location: {every: 3m}" : `    ${s}: {}`));
      if (compare) {
        y.push("variants:", `  - name: ${quote("A: " + (importKey ? importName : describe("a_")))}`);
        if (importKey) y.push(`    protocol: {${importKey}: ${quote(importName)}}`);
        y.push(`  - name: ${quote("B: " + describe("b_"))}`, "    protocol:", ...protocolLines("b_", "      "));
      }
      return y.join("\n") + "\n";
    }

    function teachYaml() {
      const perDay = Number(val("per_day")), dep = Number(val("dependence"));
      return [`# The esmsim planner's teaching page: esmsim run scenario.yaml --output results`,
        `name: "Teaching: sampling bias"`, `seed: 11`, `duration: 14d`, `population:`, `  size: 300`, `  devices: {ideal: 1}`,
        `  compliance: {state_dependence: ${dep}}`, `protocol:`,
        `  window: ${quote(val("start") + "-" + val("end"))}`, `  schedule: {algorithm: mappiness, per_day: ${perDay}}`,
        `  expiry: ${Number(val("expiry"))}m`].join("\n") + "\n";
    }

    function scenarioText() { return yamlMode ? $("#yaml").value : page === "teach" ? teachYaml() : formYaml(); }

    function changed() {
      if (!yamlMode) $("#yaml").value = scenarioText();
      for (const box of document.querySelectorAll(".schedule-fields")) {
        const alg = box.querySelector("select").value;
        for (const e of box.querySelectorAll(".only")) e.hidden = !e.classList.contains(alg);
      }
      if ($("[name=ios_out]")) $("[name=ios_out]").value = val("ios") + " %";
      clearTimeout(timer);
      timer = setTimeout(run, 250);
    }

    function body() {
      return JSON.stringify({scenario: scenarioText(), files, participant: Math.max(0, Math.floor(Number($("#who")?.value) || 1) - 1), truth: page === "teach"});
    }

    async function run() {
      const mine = ++sequence;
      $("#status").textContent = "Simulating…";
      let reply;
      try {
        const r = await fetch("/api/run", {method: "POST", headers: {"Content-Type": "application/json"}, body: body()});
        reply = await r.json();
      } catch (e) {
        reply = {ok: false, error: "the planner does not answer (is esmsim serve still running?)"};
      }
      if (mine !== sequence) return;  // a newer change is on its way
      const error = $("#error");
      if (!reply.ok) {
        error.hidden = false;
        error.textContent = reply.error;
        $("#status").textContent = "Not simulated: see the error.";
        document.body.dataset.state = "error";
        return;
      }
      error.hidden = true;
      document.body.dataset.state = "ready";
      $("#status").textContent = `${reply.name}: ${Math.round(reply.participant_days).toLocaleString("en")} participant-days simulated in ${reply.milliseconds} ms.`;
      const w = $("#warnings");
      w.hidden = !reply.warnings.length;
      w.innerHTML = reply.warnings.length ? "<b>Not simulated as written:</b><ul>" + reply.warnings.map(x => `<li>${escapeHtml(x)}</li>`).join("") + "</ul>" : "";
      render(reply);
    }

    // A touchscreen has no hover: a tap (or click) on a prompt or a band shows its story.
    document.addEventListener("click", e => {
      const hit = e.target.closest && e.target.closest("#week svg circle, #week svg rect");
      const title = hit && hit.querySelector("title");
      if (title && $("#story")) $("#story").textContent = (hit.closest("figure").querySelector("figcaption").textContent + ": " + title.textContent);
    });

    function render(reply) {
      const put = (sel, key) => { const e = $(sel); if (e) e.innerHTML = reply.variants.map(v => v[key]).join(""); };
      put("#cards", "headline"); put("#answers", "answers_chart"); put("#reaching", "reaching_chart"); put("#os", "os_split"); put("#fate", "fate_chart");
      put("#uniformity", "uniformity_chart"); put("#truth", "truth_chart");
      const week = $("#week");
      if (week) week.innerHTML = reply.variants.map(v => `<figure><figcaption>${escapeHtml(v.name)}</figcaption><div class="scroll">${v.week}</div></figure>`).join("");
      if ($("#shared")) $("#shared").innerHTML = reply.predictability_chart + reply.bias_chart;
      if ($("#coverage")) $("#coverage").innerHTML = reply.coverage_table || "<p class='note'>No periodic sensor.</p>";
      const figures = $("#figures");
      if (figures) figures.innerHTML = reply.variants.map(v => `<p>${escapeHtml(v.name)}: the mean of the answers is ${fmt(v.bias)} away from the true waking-time mean (95 % interval ${fmt(v.bias_low)} to ${fmt(v.bias_high)}); median ${fmt(v.answers_median, 0)} answers per participant.</p>`).join("");
      document.body.dataset.answersMedian = reply.variants.map(v => v.answers_median).join(",");
    }
    const fmt = (x, d = 2) => x === null || x === undefined ? "–" : Number(x).toFixed(d);
    const escapeHtml = s => String(s).replace(/[&<>"']/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"})[c]);

    function download(name, blob) {
      const a = document.createElement("a");
      a.href = URL.createObjectURL(blob);
      a.download = name;
      document.body.appendChild(a); a.click(); a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    }

    function applyPreset(p, preset) {
      const set = (CHOICES.presets.find(x => x.name === preset) || {}).form || {};
      for (const [k, v] of Object.entries(set)) {
        const e = $(`[name="${p}${k}"]`);
        if (e) { if (e.type === "checkbox") e.checked = v; else e.value = v; }
      }
      if (!("until_next" in set) && $(`[name="${p}until_next"]`)) $(`[name="${p}until_next"]`).checked = false;
      if (!("weekdays" in set) && $(`[name="${p}weekdays"]`)) $(`[name="${p}weekdays"]`).value = "";
      // Say what the preset did: the fields it set, marked in the form until the next change.
      document.querySelectorAll(".preset-set").forEach(e => e.classList.remove("preset-set"));
      const fields = Object.keys(set).map(k => $(`[name="${p}${k}"]`)).filter(e => e);
      fields.forEach(e => (e.closest("label") || e).classList.add("preset-set"));
      const label = (CHOICES.presets.find(x => x.name === preset) || {}).label;
      $("#presetNote").textContent = !preset
        ? "No preset: esmsim's defaults."
        : `${label} sets ${fields.length} field${fields.length === 1 ? "" : "s"} (marked) and its platform's rules for delivery and the app (in the YAML as preset: ${preset}).`;
    }

    function readFile(input, then) {
      const f = input.files[0];
      if (!f) return;
      if (f.size > 1000000) { $("#error").hidden = false; $("#error").textContent = `${f.name}: ${f.size} bytes; the planner reads files up to 1,000,000 bytes`; return; }
      const r = new FileReader();
      r.onload = () => then(f.name, r.result);
      r.readAsText(f);
    }

    async function setup() {
      const form = $("#form");
      if (page === "planner") {
        CHOICES = await (await fetch("/api/choices")).json();
        // The study's own fields start as the quickstart's (their default too, for a field emptied).
        for (const [k, v] of Object.entries(CHOICES.start)) {
          const e = typeof v === "object" ? null : $(`[name="${k}"]`);
          if (e && e.type === "checkbox") e.checked = e.defaultChecked = v;
          else if (e) e.value = e.defaultValue = v;
        }
        $("[name=preset]").insertAdjacentHTML("beforeend", CHOICES.presets.map(x => `<option value="${x.name}">${x.label}</option>`).join(""));
        $("[name=people]").insertAdjacentHTML("beforeend", CHOICES.people.map(x => `<option value="${x.name}">${x.label}</option>`).join(""));
        $("#devices").innerHTML = CHOICES.devices.map(d =>
          `<label>${d.label[0].toUpperCase() + d.label.slice(1)} <input name="dev_${d.name}" type="number" min="0" max="1" step="0.05" value="${CHOICES.start.devices[d.name] || 0}"></label>`).join("");
        $("#protocolA .schedule-fields").innerHTML = scheduleFields("a_");
        $("#protocolB .schedule-fields").innerHTML = scheduleFields("b_");
        $("[name=preset]").addEventListener("change", e => applyPreset("a_", e.target.value));
        $("[name=compare]").addEventListener("change", e => { $("#protocolB").hidden = !e.target.checked; });
        $("#scenarioFile").addEventListener("change", e => readFile(e.target, (name, text) => {
          yamlMode = true; $("#yaml").value = text; $("#yamlBox").open = true;
          $("#yamlMode").textContent = `Running ${name} as written; reload the page to go back to the form.`;
          form.classList.add("yaml-mode"); changed();
        }));
        $("#importFile").addEventListener("change", e => readFile(e.target, (name, text) => {
          let kind = "aware_schedule";
          try { const j = JSON.parse(text); if (!Array.isArray(j)) kind = "esmira_study"; } catch (_) { /* the server names the error */ }
          files = {[name]: text}; importKey = kind; importName = name;
          $(".imported").hidden = false; $(".import-name").textContent = name;
          $(".import-kind").textContent = kind === "aware_schedule" ? "an AWARE schedule" : "an ESMira study";
          $("#protocolA .schedule-fields").hidden = true; changed();
        }));
        $(".remove-import").addEventListener("click", () => {
          files = {}; importKey = null; importName = null; $(".imported").hidden = true;
          $("#protocolA .schedule-fields").hidden = false; $("#importFile").value = ""; changed();
        });
        $("#exportYaml").addEventListener("click", () => download("scenario.yaml", new Blob([scenarioText()], {type: "text/yaml"})));
        $("#exportResults").addEventListener("click", async () => {
          $("#status").textContent = "Writing the results folder…";
          const r = await fetch("/api/results", {method: "POST", headers: {"Content-Type": "application/json"}, body: body()});
          if (r.ok) { download("esmsim-results.zip", await r.blob()); $("#status").textContent = "Results downloaded."; }
          else { const j = await r.json(); $("#error").hidden = false; $("#error").textContent = j.error; }
        });
        $("#prev").addEventListener("click", () => { $("#who").value = Math.max(1, Number($("#who").value) - 1); changed(); });
        $("#next").addEventListener("click", () => { $("#who").value = Number($("#who").value) + 1; changed(); });
        $("#who").addEventListener("change", changed);
        $("#yaml").addEventListener("input", () => { yamlMode = true; $("#yamlMode").textContent = "Running the YAML as edited; reload the page to go back to the form."; form.classList.add("yaml-mode"); changed(); });
      } else {
        for (const e of form.querySelectorAll("input[type=range]")) {
          const show = () => { e.nextElementSibling.value = e.value + (e.dataset.unit || ""); };
          e.addEventListener("input", show); show();
        }
      }
      form.addEventListener("input", e => { if (e.target.id !== "yaml" && e.target.type !== "file") changed(); });
      form.addEventListener("change", e => { if (e.target.id !== "yaml" && e.target.type !== "file") changed(); });
      form.addEventListener("submit", e => e.preventDefault());
      changed();
    }
    setup();
    """#
}
