// The table page's layout, measured by test_page_pictures.py in the table's frame once a
// scene is drawn: sizes, what sticks out, buttons under 44 px, text contrast under 4.5:1.
() => {
  const box = (sel) => { const e = document.querySelector(sel); return e ? e.getBoundingClientRect() : null; };
  const rgb = (c) => (c.match(/[\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const background = (e) => { for (; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor);
    if (c.length === 3 || c[3] > 0.5) return c; } return [43, 45, 49]; };
  const contrast = (e) => { const a = lum(rgb(getComputedStyle(e).color)), b = lum(background(e));
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05); };
  const texts = [...document.querySelectorAll('h1, h2, h3, p, li, .name, .score, .tag, .count, button, .clock-text')]
    .filter((e) => e.offsetParent !== null && e.textContent.trim() && !e.closest('.state-taken, .state-gone'));
  const buttons = [...document.querySelectorAll('button')].filter((b) => b.offsetParent !== null);
  const play = document.querySelector('.play');
  // Text wider than its box: cut off where it hides overflow, spilling out where it does not.
  const cut = texts.filter((e) => e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1);
  // Text squeezed until words break inside: more lines than it has words.
  const lines = (e) => { const style = getComputedStyle(e);
    const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.35;
    return Math.round(e.getBoundingClientRect().height / line); };
  const squeezed = texts.filter((e) => e.children.length === 0 && getComputedStyle(e).display !== 'inline'
    && lines(e) > e.textContent.trim().split(/\s+/).length);
  return {
    pageWidth: document.documentElement.scrollWidth, viewWidth: innerWidth, viewHeight: innerHeight,
    wide: [...document.querySelectorAll('.table *')].filter((e) => e.getBoundingClientRect().right > innerWidth + 0.5)
      .map((e) => e.className || e.tagName).slice(0, 5),
    bar: box('.bar')?.height ?? 0, state: box('.state')?.height ?? 0,
    play: play ? play.clientHeight : 0, playContent: play ? play.scrollHeight : 0,
    actions: box('.actions')?.height ?? 0, actionsBottom: box('.actions')?.bottom ?? 0,
    smallest: buttons.map((b) => { const r = b.getBoundingClientRect(); return Math.min(r.width, r.height); })
      .reduce((a, b) => Math.min(a, b), Infinity),
    small: buttons.filter((b) => { const r = b.getBoundingClientRect(); return r.width < 44 || r.height < 44; })
      .map((b) => b.getAttribute('aria-label')),
    lowContrast: texts.filter((e) => contrast(e) < 4.5).map((e) => `${e.textContent.trim().slice(0, 30)} ${contrast(e).toFixed(2)}`),
    cut: cut.map((e) => e.textContent.trim().slice(0, 30)),
    squeezed: squeezed.map((e) => `${e.textContent.trim().slice(0, 30)} (${lines(e)} lines)`),
  };
}
