// The budget: a stacked bar chart of capex and opex per fiscal year, drawn again after every
// HTMX swap of the budget section. An enhancement: the data table beside it has the figures.
(function () {
  "use strict";
  let chart = null;
  const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

  function drawBudgetChart() {
    if (chart) { chart.destroy(); chart = null; }
    const source = document.getElementById("budget-chart-data");
    const canvas = document.getElementById("budget-chart");
    if (!source || !canvas || !window.Chart) return;
    const data = JSON.parse(source.textContent);
    chart = new window.Chart(canvas, {
      type: "bar",
      data: {
        labels: data.labels,
        datasets: [
          { label: data.capex_label, data: data.capex, backgroundColor: "#0b5cad" },
          { label: data.opex_label, data: data.opex, backgroundColor: "#b3261e" },
        ],
      },
      options: {
        // Numbers on the axes and in tooltips as the page's language writes them.
        locale: document.documentElement.lang,
        animation: reduceMotion.matches ? false : { duration: 300 },
        responsive: true,
        maintainAspectRatio: false,
        scales: {
          x: { stacked: true },
          y: { stacked: true, beginAtZero: true, title: { display: true, text: data.unit } },
        },
      },
    });
  }

  // After a swap of the budget section, move the focus to its news (a line added, changed or
  // deleted) or to the line form it now shows, so keyboard and screen reader users follow.
  function focusBudget(event) {
    const section = event.target.closest ? event.target.closest("#budget") || event.target : null;
    if (!section || section.id !== "budget") return;
    const field = section.querySelector(".cost-line-form input:not([type=hidden]), .cost-line-form select");
    const focusTarget = section.querySelector(".error-summary") || field || section;
    focusTarget.focus();
  }

  document.addEventListener("DOMContentLoaded", drawBudgetChart);
  document.addEventListener("htmx:afterSettle", (event) => {
    drawBudgetChart();
    focusBudget(event);
  });
  document.addEventListener("htmx:historyRestore", drawBudgetChart);
})();
