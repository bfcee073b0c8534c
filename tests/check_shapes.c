/* check_shapes.c: the trees are trees (one root, parents and children agree, every rank
 * reachable), the two-tree's complementarity, and the node chains. */
#include <string.h>

#include "topo/trees.h"
#include "check_util.h"

/* Checks that nodes[0..n) form one tree; returns its root. */
static int assert_tree(const topo_tree_node *nodes, int n, int max_children)
{
  int root = -1;
  for (int i = 0; i < n; i++) {
    ck_assert_int_le(nodes[i].nchild, max_children);
    if (nodes[i].parent < 0) {
      ck_assert_msg(root < 0, "n=%d: two roots %d and %d", n, root, i);
      root = i;
    } else {
      const topo_tree_node *p = &nodes[nodes[i].parent];
      int found = 0;
      for (int c = 0; c < p->nchild; c++)
        found += p->child[c] == i;
      ck_assert_msg(found == 1, "n=%d: %d not a child of its parent %d", n, i, nodes[i].parent);
    }
    for (int c = 0; c < nodes[i].nchild; c++) {
      ck_assert_int_ge(nodes[i].child[c], 0);
      ck_assert_int_lt(nodes[i].child[c], n);
      ck_assert_int_eq(nodes[nodes[i].child[c]].parent, i);
    }
  }
  ck_assert_int_ge(root, 0);
  /* everyone reaches the root, in at most n steps */
  for (int i = 0; i < n; i++) {
    int v = i, steps = 0;
    while (nodes[v].parent >= 0 && steps <= n)
      v = nodes[v].parent, steps++;
    ck_assert_int_eq(v, root);
  }
  return root;
}

START_TEST(binary_trees_for_every_size)
{
  topo_tree_node nodes[1100];
  for (int n = 1; n <= 1030; n++) {
    for (int i = 0; i < n; i++)
      topo_tree_bin(n, i, &nodes[i]);
    int root = assert_tree(nodes, n, 2);
    int pow2 = 1;
    while (pow2 * 2 <= n)
      pow2 *= 2;
    ck_assert_int_eq(root, pow2 - 1);
    /* logarithmic depth */
    for (int i = 0; i < n; i++) {
      int v = i, d = 0;
      while (nodes[v].parent >= 0)
        v = nodes[v].parent, d++;
      ck_assert_int_le(1 << d, 2 * n);
    }
  }
}
END_TEST

START_TEST(two_trees_are_complementary)
{
  topo_tree_node a[300], b[300];
  for (int n = 1; n <= 257; n++) {
    for (int i = 0; i < n; i++) {
      topo_tree_two(n, 0, i, &a[i]);
      topo_tree_two(n, 1, i, &b[i]);
    }
    assert_tree(a, n, 2);
    assert_tree(b, n, 2);
    for (int i = 0; i < n; i++) {
      int interior = (a[i].nchild > 0) + (b[i].nchild > 0);
      ck_assert_msg(interior <= 1, "n=%d: rank %d interior in both trees", n, i);
    }
  }
}
END_TEST

START_TEST(node_chains_under_an_inter_node_tree)
{
  for (int nodes = 1; nodes <= 9; nodes++)
    for (int rpn = 1; rpn <= 8; rpn++)
      for (int last = 0; last < 2; last++) {
        topo_tree_node inter[16], all[128];
        for (int n = 0; n < nodes; n++)
          topo_tree_two(nodes, last, n, &inter[n]);
        for (int r = 0; r < nodes * rpn; r++)
          topo_tree_chain(nodes, rpn, last, inter, r, &all[r]);
        assert_tree(all, nodes * rpn, 3);
        /* only heads cross nodes */
        for (int r = 0; r < nodes * rpn; r++)
          if (all[r].parent >= 0 && all[r].parent / rpn != r / rpn)
            ck_assert_int_eq(r % rpn, last ? rpn - 1 : 0);
      }
}
END_TEST

int main(void)
{
  Suite *s = suite_create("shapes");
  CHECK_CASE(s, "shapes", 30, binary_trees_for_every_size, two_trees_are_complementary,
             node_chains_under_an_inter_node_tree);
  return check_run(s);
}
