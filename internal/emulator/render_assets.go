package emulator

// The site's stylesheet and script: system fonts, no image, nothing
// loaded from elsewhere.

type asset struct{ name, data string }

var assets = []asset{{"assets/style.css", styleCSS}, {"assets/app.js", appJS}}

const styleCSS = `:root{--ink:#1d2330;--muted:#5b6474;--line:#e3e6eb;--soft:#f6f8fa;--accent:#0969da;--get:#1a7f37;--post:#0969da;--put:#9a6700;--delete:#cf222e;--patch:#8250df}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);display:grid;grid-template-columns:19rem minmax(0,1fr);grid-template-rows:auto 1fr;grid-template-areas:"top top" "side main";min-height:100vh}
a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}
code,pre{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
header.top{grid-area:top;position:sticky;top:0;z-index:2;display:flex;gap:.8rem;align-items:center;padding:.6rem 1.2rem;background:var(--ink);color:#fff}
header.top .title{color:#fff;font-weight:700;font-size:1.1rem}
header.top .version,header.top .spec{opacity:.75;font-size:.85rem}
#filter{margin-left:auto;padding:.35rem .6rem;width:16rem;border-radius:4px;border:0}
#expand{padding:.35rem .6rem;border-radius:4px;border:0;cursor:pointer}
nav.side{grid-area:side;position:sticky;top:3rem;align-self:start;max-height:calc(100vh - 3rem);overflow:auto;padding:1rem .8rem;border-right:1px solid var(--line);background:var(--soft);font-size:.88rem}
nav.side ul{list-style:none;margin:0;padding:0}nav.side>ul>li{margin:.2rem 0}
nav.side>ul>li>a{font-weight:600;color:var(--ink)}nav.side li.current>a{color:var(--accent)}
nav.side ul ul{margin:.2rem 0 .6rem .4rem}nav.side ul ul a{color:var(--ink);display:block;padding:.1rem .3rem;border-radius:3px;overflow-wrap:anywhere}
nav.side ul ul a:hover{background:var(--line);text-decoration:none}
main{grid-area:main;padding:1rem 2.5rem 4rem;max-width:72rem}
h1{margin:.5rem 0 0}h2{margin-top:2.2rem;padding-bottom:.3rem;border-bottom:1px solid var(--line)}
.meta{color:var(--muted)}
.md p:first-child{margin-top:.3rem}.md p:last-child{margin-bottom:.3rem}
.md code,td code,p code,li code{background:var(--soft);border:1px solid var(--line);border-radius:3px;padding:0 .25rem}
pre{background:#0f1420;color:#e6edf3;padding:.8rem 1rem;border-radius:6px;overflow:auto;max-height:28rem}
pre code{background:none;border:0;padding:0;color:inherit}
.operation,.component{border:1px solid var(--line);border-radius:8px;padding:.2rem 1.2rem 1rem;margin:1.2rem 0;scroll-margin-top:3.5rem}
.operation.deprecated h3 .path{text-decoration:line-through}
.operation h3{display:flex;gap:.6rem;align-items:center;flex-wrap:wrap}
.method{display:inline-block;min-width:3.6rem;text-align:center;font:700 .72rem/1.7 system-ui,sans-serif;color:#fff;background:var(--muted);border-radius:3px;padding:0 .35rem;text-transform:uppercase}
.m-GET{background:var(--get)}.m-POST{background:var(--post)}.m-PUT{background:var(--put)}.m-DELETE{background:var(--delete)}.m-PATCH{background:var(--patch)}
.summary{font-size:1.05rem;margin:.2rem 0}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:.6rem 0}dl.facts dt{color:var(--muted)}dl.facts dd{margin:0}
table{border-collapse:collapse;width:100%;margin:.4rem 0}
th{text-align:left;font-size:.8rem;text-transform:uppercase;letter-spacing:.03em;color:var(--muted)}
td,th{border-bottom:1px solid var(--line);padding:.4rem .5rem;vertical-align:top}
td>p,td>.md>p{margin:.1rem 0}
td.name{white-space:nowrap;width:1%}
table.props{border-left:2px solid var(--line);margin-left:.2rem}
table.props td{padding:.3rem .5rem}
.req{color:var(--delete);font-size:.75rem;font-weight:600}
.t,.format{color:var(--muted)}.format::before{content:"<"}.format::after{content:">"}
a.ref{font-weight:600}.cycle{font-size:.75rem;color:var(--patch)}
ul.facts{list-style:none;padding:0;margin:.2rem 0;display:flex;flex-wrap:wrap;gap:.3rem}
ul.facts li{background:var(--soft);border:1px solid var(--line);border-radius:10px;padding:0 .5rem;font-size:.8rem}
.enum,.default,.example{margin:.2rem 0;font-size:.88rem}
details{margin:.3rem 0}summary{cursor:pointer;color:var(--accent);font-size:.85rem}
.response{border-top:1px solid var(--line);padding:.3rem 0}.response h5{margin:.5rem 0 .2rem;font-size:.95rem}
.status{font-weight:700;padding:0 .4rem;border-radius:3px}.s2{color:var(--get)}.s3{color:var(--put)}.s4,.s5{color:var(--delete)}.sd{color:var(--muted)}
.media{margin:.4rem 0 .4rem .6rem}.mt{margin:.2rem 0;color:var(--muted)}
.badge{font-size:.72rem;font-weight:600;border:1px solid var(--line);border-radius:10px;padding:0 .45rem;color:var(--muted)}.badge.warn{color:var(--delete)}
a.shared{font-weight:600}.used-by,.also{color:var(--muted);font-size:.88rem}
.variants ol{padding-left:1.2rem}
.hidden{display:none}
@media (max-width:50rem){body{grid-template-columns:1fr;grid-template-areas:"top" "main"}nav.side{display:none}main{padding:1rem}}
`

const appJS = `document.addEventListener("DOMContentLoaded", function () {
  var box = document.getElementById("filter");
  if (box) {
    box.addEventListener("input", function () {
      var q = box.value.toLowerCase();
      document.querySelectorAll("[data-search]").forEach(function (el) {
        var text = (el.getAttribute("data-search") || "").toLowerCase();
        el.classList.toggle("hidden", q !== "" && text.indexOf(q) < 0);
      });
    });
  }
  var expand = document.getElementById("expand");
  if (expand) {
    expand.addEventListener("click", function () {
      var open = expand.textContent === "Expand all";
      document.querySelectorAll("main details").forEach(function (d) { d.open = open; });
      expand.textContent = open ? "Collapse all" : "Expand all";
    });
  }
});
`
