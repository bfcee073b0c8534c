/* trees.c: parents and children in in-order binary trees, two-trees and node chains. */
#include "trees.h"

static int lowbit(int x) { return x & -x; }

/* Node ids are 1-based in-order numbers: node v has height ctz(v); nodes > n do not exist. */
static int up(int v, int n)
{
  do {
    int b = lowbit(v);
    v = (v & (2 * b)) ? v - b : v + b;
  } while (v > n);
  return v;
}

/* The child of v on the given side, skipping missing nodes of an incomplete tree. */
static int down(int v, int n, int right)
{
  int b = lowbit(v) / 2;
  if (b == 0)
    return 0;
  int c = right ? v + b : v - b;
  while (c > n) { /* only right children can fall outside: step to their left child */
    int cb = lowbit(c) / 2;
    if (cb == 0)
      return 0;
    c -= cb;
  }
  return c;
}

void topo_tree_bin(int n, int pos, topo_tree_node *out)
{
  int v = pos + 1, root = 1;
  while (root * 2 <= n)
    root *= 2;
  out->parent = v == root ? -1 : up(v, n) - 1;
  out->nchild = 0;
  for (int right = 0; right < 2; right++) {
    int c = down(v, n, right);
    if (c > 0)
      out->child[out->nchild++] = c - 1;
  }
}

void topo_tree_two(int n, int which, int pos, topo_tree_node *out)
{
  if (which == 0 || n == 1) {
    topo_tree_bin(n, pos, out);
    return;
  }
  /* tree 1: rank r sits at position (r+1) mod n of the in-order tree */
  topo_tree_bin(n, (pos + 1) % n, out);
  if (out->parent >= 0)
    out->parent = (out->parent + n - 1) % n;
  for (int i = 0; i < out->nchild; i++)
    out->child[i] = (out->child[i] + n - 1) % n;
}

void topo_tree_chain(int nodes, int rpn, int head_last, const topo_tree_node *inter, int rank, topo_tree_node *out)
{
  int node = rank / rpn, local = rank % rpn;
  int pos = head_last ? rpn - 1 - local : local; /* place in the chain, head = 0 */
  int base = node * rpn;
#define AT(p) (base + (head_last ? rpn - 1 - (p) : (p)))
  out->nchild = 0;
  if (pos > 0) {
    out->parent = AT(pos - 1);
  } else {
    const topo_tree_node *t = &inter[node];
    int head = head_last ? rpn - 1 : 0;
    out->parent = t->parent < 0 ? -1 : t->parent * rpn + head;
    for (int i = 0; i < t->nchild; i++)
      out->child[out->nchild++] = t->child[i] * rpn + head;
  }
  if (pos + 1 < rpn)
    out->child[out->nchild++] = AT(pos + 1);
#undef AT
  (void)nodes;
}
