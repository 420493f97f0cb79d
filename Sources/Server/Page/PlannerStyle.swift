/// The planner's and the teaching page's style sheet, with report.html's chart classes.
enum PlannerStyle {
  static let css = #"""
    *{box-sizing:border-box}[hidden]{display:none !important}body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:0;color:#222}
    header{padding:10px 18px;border-bottom:1px solid #ddd;display:flex;flex-wrap:wrap;gap:4px 18px;align-items:baseline}
    header h1{font-size:1.3em;margin:0}header p{margin:0;color:#555;font-size:.9em}nav a{color:#1f6fb4}
    main{display:flex;gap:18px;padding:12px 18px;align-items:flex-start}
    form{flex:0 0 330px;position:sticky;top:8px;max-height:calc(100vh - 16px);overflow-y:auto}
    fieldset{border:1px solid #ddd;border-radius:6px;margin:0 0 10px;padding:6px 10px}legend{font-weight:600}
    label{display:flex;justify-content:space-between;align-items:center;gap:8px;margin:4px 0;font-size:.9em}
    label.check{justify-content:flex-start}input[type=number],input[type=time],input[type=text],select{width:9.5em}
    input[type=range]{flex:1}output{flex:0 0 4em;text-align:right}
    textarea{width:100%;font-family:ui-monospace,Menlo,monospace;font-size:.8em}
    button{margin:3px 4px 3px 0}.hint{font-size:.8em;color:#555}
    #results{flex:1;min-width:0}h2{font-size:1.1em;margin:1.2em 0 .3em;border-bottom:1px solid #ddd}
    .error{background:#fde8e6;border:1px solid #c0392b;color:#7d1f15;padding:8px 12px;border-radius:6px;white-space:pre-wrap;font-family:ui-monospace,Menlo,monospace;font-size:.85em}
    .warnings{background:#fff6e0;border:1px solid #e0a800;padding:6px 12px;border-radius:6px;font-size:.85em}
    form.yaml-mode fieldset:not(:nth-last-of-type(-n+2)){opacity:.45}
    .charts{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}
    figure{margin:0;flex:1 1 420px;min-width:0}figcaption{font-weight:600;font-size:.9em}.note{color:#555;font-size:.9em}
    #who{width:4em}
    .axis{stroke:#333;stroke-width:1}.grid{stroke:#eee;stroke-width:1}.tick{font-size:10px;fill:#333}.label{font-size:11px;fill:#333}
    .sched{fill:none;stroke:#888;stroke-width:1.5}.answered{fill:none;stroke:#1f6fb4;stroke-width:1.5}.truth{fill:none;stroke:#2a9d3a;stroke-width:2}
    .bar{fill:#1f6fb4}.bar2{fill:#e08a2c}.whisker{stroke:#333;stroke-width:1.5}.dot{fill:#c0392b}
    .target{stroke:#333;stroke-width:1.5;stroke-dasharray:4 3}.mean{stroke-dasharray:6 4;stroke-width:1.2}
    table{border-collapse:collapse;font-size:.85em;display:block;overflow-x:auto;max-width:100%}td,th{border:1px solid #ddd;padding:2px 6px;text-align:right}
    th{background:#f4f4f4}td.name,th.name{text-align:left}
    .cards{display:flex;flex-wrap:wrap;gap:16px}.card{border:1px solid #ddd;border-radius:6px;padding:8px 14px;min-width:260px;flex:1}
    .card h3{margin:.2em 0 .4em;font-size:1.05em}.card dl{display:grid;grid-template-columns:max-content auto;gap:3px 12px;margin:0}
    .card dt{color:#555}.card dd{margin:0;font-weight:600}
    .legend{font-size:.8em;color:#444}.key{display:inline-block;width:14px;height:3px;vertical-align:middle;margin:0 4px 0 8px;background:#888}
    .key.answered{background:#1f6fb4}.key.truth{background:#2a9d3a}.key.bar{height:10px;background:#1f6fb4}.key.bar2{height:10px;background:#e08a2c}
    .fate{display:flex;align-items:center;gap:8px;font-size:.85em;margin:2px 0}.fate .what{flex:0 0 8.5em}
    .fate .track{flex:1;background:#f2f2f2;height:12px;min-width:60px}.fate .fill{display:block;height:12px}
    .fate .ok{background:#1f6fb4}.fate .sent{background:#7fa7cc}.fate .miss{background:#c0392b}.fate .share{flex:0 0 4.5em;text-align:right}
    .story{background:#f4f7fb;border-left:3px solid #1f6fb4;padding:6px 10px;font-size:.9em;min-height:1.5em}
    #week .scroll{overflow-x:auto}
    #week figure,#os figure{flex-basis:100%;overflow-x:auto}#week svg.week{min-width:960px}
    .preset-set{background:#fff3c4;border-radius:3px}
    .jump{display:none}
    @media (max-width:760px){.jump{display:inline-block;position:fixed;right:10px;bottom:10px;z-index:5;background:#1f6fb4;color:#fff;padding:8px 14px;border-radius:18px;text-decoration:none;box-shadow:0 1px 4px rgba(0,0,0,.3)}.jump.back{position:static;margin:0 0 8px;box-shadow:none}main{display:flex;flex-direction:column;padding:8px}#results{order:-1;width:100%}form{position:static;max-height:none;width:100%;flex-basis:auto}.card{min-width:0}figure{flex-basis:100%}.fate .what{flex-basis:6.5em}.card dl{grid-template-columns:auto}}
    """#
}
