/* The faction card's confirmation: keep the receipt it shows in this browser (localStorage,
 * `fairfight.receipts.ID`, one list per season), so "my contributions" can check it later. */
"use strict";
(function () {
  const link = document.querySelector("#receipt-link a[href*='/receipts/']");
  const found = window.location.pathname.match(/^\/conquest\/(\d+)\//);
  if (!link || !found || !window.localStorage) return;
  const key = `fairfight.receipts.${found[1]}`;
  fetch(link.getAttribute("href"))
    .then((response) => (response.ok ? response.json() : null))
    .then((receipt) => {
      if (!receipt || !receipt.entry) return;
      let receipts = [];
      try {
        receipts = JSON.parse(localStorage.getItem(key) || "[]");
      } catch (error) {
        receipts = [];
      }
      if (!Array.isArray(receipts)) receipts = [];
      const others = receipts.filter((item) => !(item.entry && item.entry.seq === receipt.entry.seq));
      localStorage.setItem(key, JSON.stringify([...others, receipt]));
      document.body.dataset.receiptKept = "yes";
    })
    .catch(() => {});
})();
