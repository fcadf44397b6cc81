// The scenario page: charts of cumulative compute, and only the inputs the chosen method uses.
// Everything here is an enhancement: the page works and reads the same without it.
(function () {
  "use strict";
  const charts = [];
  const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

  const breakEvenLine = {
    id: "breakEvenLine",
    afterDatasetsDraw(chart, _args, options) {
      if (options.month === null || options.month === undefined) return;
      const x = chart.scales.x.getPixelForValue(options.month);
      if (x < chart.chartArea.left || x > chart.chartArea.right) return;
      const ctx = chart.ctx;
      ctx.save();
      ctx.strokeStyle = "#6a1b9a";
      ctx.setLineDash([6, 4]);
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.moveTo(x, chart.chartArea.top);
      ctx.lineTo(x, chart.chartArea.bottom);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.fillStyle = "#6a1b9a";
      ctx.fillText(options.text || "break-even", x + 4, chart.chartArea.top + 12);
      ctx.restore();
    },
  };

  function lineChart(canvas, data, training, inference, unit) {
    const words = data.labels || {};
    const points = (values) => data.months.map((month, i) => ({ x: month, y: values[i] }));
    return new window.Chart(canvas, {
      type: "line",
      data: {
        datasets: [
          { label: words.training || "Training (one-off), cumulative", data: points(training), borderColor: "#0b5cad",
            backgroundColor: "#0b5cad", stepped: true, pointRadius: 0, borderWidth: 3 },
          { label: words.inference || "Inference (recurring), cumulative", data: points(inference), borderColor: "#b3261e",
            backgroundColor: "#b3261e", pointRadius: 2, borderWidth: 3, borderDash: [2, 2] },
        ],
      },
      options: {
        // Numbers on the axes and in tooltips as the page's language writes them.
        locale: document.documentElement.lang,
        animation: reduceMotion.matches ? false : { duration: 300 },
        responsive: true,
        maintainAspectRatio: false,
        parsing: false,
        scales: {
          x: { type: "linear", min: 0, max: data.horizon_months, title: { display: true, text: words.month || "Month" } },
          y: { beginAtZero: true, title: { display: true, text: unit } },
        },
        plugins: { breakEvenLine: { month: data.break_even_months, text: words.break_even } },
      },
      plugins: [breakEvenLine],
    });
  }

  function drawCharts() {
    while (charts.length) charts.pop().destroy();
    const source = document.getElementById("chart-data");
    if (!source || !window.Chart) return;
    const data = JSON.parse(source.textContent);
    const hours = document.getElementById("chart-hours");
    const cost = document.getElementById("chart-cost");
    if (hours) charts.push(lineChart(hours, data, data.training_accelerator_hours,
      data.inference_accelerator_hours, (data.labels || {}).hours || "Accelerator-hours"));
    if (cost) charts.push(lineChart(cost, data, data.training_cost, data.inference_cost, (data.labels || {}).cost || "Cost (USD)"));
  }

  function showMethodFields() {
    document.querySelectorAll("fieldset[data-section]").forEach((section) => {
      const checked = section.querySelector('input[type="radio"][name$="_method"]:checked');
      const method = checked ? checked.value : "";
      section.querySelectorAll("[data-methods]").forEach((field) => {
        field.hidden = !field.dataset.methods.split(" ").includes(method);
      });
    });
  }

  // Typed but unsaved changes: ask before leaving, so that nothing typed is lost by accident.
  let unsaved = false;
  function watchUnsavedChanges() {
    const form = document.getElementById("scenario-form");
    if (!form) return;
    form.addEventListener("input", () => { unsaved = true; });
    form.addEventListener("submit", () => { unsaved = false; });
    window.addEventListener("beforeunload", (event) => {
      if (unsaved) event.preventDefault();
    });
  }

  // A range's disclosure stays open while either end holds something: its summary, written by
  // the server, cannot say a value typed since, so closed it would hide that value.
  function keepFilledRangesOpen(event) {
    const details = event.target;
    if (!details.matches || !details.matches("details.range-disclosure") || details.open) return;
    const filled = [...details.querySelectorAll("input[type=text]")].some((input) => input.value.trim());
    if (filled) details.open = true;
  }

  document.addEventListener("DOMContentLoaded", () => {
    drawCharts();
    showMethodFields();
    watchUnsavedChanges();
    // "toggle" does not bubble: listen while it goes down.
    document.addEventListener("toggle", keepFilledRangesOpen, true);
    document.addEventListener("change", (event) => {
      if (event.target.name && event.target.name.endsWith("_method")) showMethodFields();
    });
    // A text field already asks for figures as it is typed in ("input"); its "change" when the
    // focus leaves would ask again for the same figures, and that answer, swapped in during a
    // click on a toggle link, replaces the link under the pointer and the click is lost.
    document.getElementById("scenario-form")?.addEventListener("change", (event) => {
      if (event.target.matches('input[type="text"]')) event.stopPropagation();
    }, true);
  });
  document.addEventListener("htmx:afterSettle", drawCharts);
  // A fold the reader opened among the figures (the month-by-month table, the description, how
  // a figure is worked out) stays open when the live preview swaps new figures in: typing a value
  // does not close it. Folds are known by their summary's words and, where two read alike, by
  // their order.
  const foldKeys = (root) => {
    const seen = new Map();
    return Array.from(root.querySelectorAll("details"), (details) => {
      const words = details.querySelector(":scope > summary")?.textContent.trim() ?? "";
      seen.set(words, (seen.get(words) ?? 0) + 1);
      return [details, `${words}#${seen.get(words)}`];
    });
  };
  let openFolds = null;
  document.addEventListener("htmx:beforeSwap", (event) => {
    const target = event.detail.target;
    openFolds = target?.id
      ? { id: target.id, keys: new Set(foldKeys(target).filter(([d]) => d.open).map(([, k]) => k)) }
      : null;
  });
  document.addEventListener("htmx:afterSwap", () => {
    const swapped = openFolds && document.getElementById(openFolds.id);
    if (!swapped) return;
    foldKeys(swapped).forEach(([details, key]) => {
      if (openFolds.keys.has(key)) details.open = true;
    });
    openFolds = null;
  });
  // Back or Forward to a view HTMX no longer keeps: load the whole page again. (Asked for with
  // HX-Request, this address answers with the figures alone, which would replace the page.)
  if (window.htmx) window.htmx.config.refreshOnHistoryMiss = true;
  // The form's hx-post names the view the page was loaded in; the toggle links change the view
  // (and push it to the address) without a reload, so the live preview asks for the view shown.
  document.addEventListener("htmx:configRequest", (event) => {
    if (event.detail.elt.id !== "scenario-form") return;
    const shown = new URLSearchParams(window.location.search).get("view");
    const url = new URL(event.detail.path, window.location.href);
    url.searchParams.set("view", shown === "single" ? "single" : "many");
    event.detail.path = url.pathname + url.search;
  });
  // For Back and Forward, HTMX keeps each view's page as HTML, which holds only the values the
  // fields were loaded with: write what was typed into the HTML first, so that the form comes
  // back as it was, matching the figures beside it, and Save stores what the page shows.
  document.addEventListener("htmx:beforeHistorySave", () => {
    document.querySelectorAll("#scenario-form input, #scenario-form select").forEach((field) => {
      if (field.type === "checkbox" || field.type === "radio") {
        field.toggleAttribute("checked", field.checked);
      } else if (field.tagName === "SELECT") {
        field.querySelectorAll("option").forEach((o) => o.toggleAttribute("selected", o.selected));
      } else {
        field.setAttribute("value", field.value);
      }
    });
  });
  document.addEventListener("htmx:historyRestore", () => {
    drawCharts();
    showMethodFields();
  });
})();
