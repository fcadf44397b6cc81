// Plan against actual: cumulative plan (solid line) and cumulative actual (dashed line with
// square points) by month, so that nothing is told apart by colour alone. Nothing moves under
// prefers-reduced-motion. An enhancement: the table beside it has the figures.
(function () {
  "use strict";
  const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
  const PLAN = "#0b5cad";
  const ACTUAL = "#b3261e";

  function draw() {
    const source = document.getElementById("actuals-chart-data");
    const canvas = document.getElementById("actuals-chart");
    if (!source || !canvas || !window.Chart) return;
    const data = JSON.parse(source.textContent);
    new window.Chart(canvas, {
      type: "line",
      data: {
        labels: data.labels,
        datasets: [
          { label: data.plan_label, data: data.plan, borderColor: PLAN, backgroundColor: PLAN,
            borderWidth: 2, pointRadius: 0, pointStyle: "line" },
          { label: data.actual_label, data: data.actual, borderColor: ACTUAL,
            backgroundColor: ACTUAL, borderWidth: 2, borderDash: [6, 4], pointStyle: "rect",
            pointRadius: 3, spanGaps: false },
        ],
      },
      options: {
        locale: document.documentElement.lang,
        animation: reduceMotion.matches ? false : { duration: 300 },
        responsive: true,
        maintainAspectRatio: false,
        scales: { y: { beginAtZero: true, title: { display: true, text: data.unit } } },
        plugins: { legend: { labels: { usePointStyle: true } } },
      },
    });
  }

  document.addEventListener("DOMContentLoaded", draw);
})();
