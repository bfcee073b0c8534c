/* trees.h: the shapes of the trees the tree algorithms lay over ranks and nodes (no MPI here). */
#ifndef TOPO_TREES_H
#define TOPO_TREES_H

/* A rank's place in one tree: its parent (-1 at the root) and up to three children. */
typedef struct {
  int parent;
  int nchild;
  int child[3];
} topo_tree_node;

/* The in-order binary tree over positions 0..n-1: position i is node i+1 of the complete
 * in-order numbering, whose height is the number of trailing zero bits of i+1, so that
 * even positions are the leaves. The root is the largest power of two <= n, minus one. */
void topo_tree_bin(int n, int pos, topo_tree_node *out);

/* The two complementary trees of the two-tree algorithm [SST09]: tree 0 is the in-order
 * tree over 0..n-1, tree 1 the same tree over positions shifted by one ((i+1) mod n), so
 * that every even position is a leaf of tree 0 and every odd one a leaf of tree 1: each
 * rank is interior in at most one tree. Fills the node of rank `pos` in tree `which`. */
void topo_tree_two(int n, int which, int pos, topo_tree_node *out);

/* A topology-aware tree over nodes x ranks_per_node, as NCCL builds it: the ranks of a node
 * form a chain (head first), and the heads form the tree `inter` over the nodes. `head_last`
 * makes local rank R-1 the head and runs the chain downwards (the second tree of twotree
 * uses it, so the two trees use opposite directions of every intra-node link). `inter`
 * holds for every node its topo_tree_node over node indices. Fills rank `rank`'s node. */
void topo_tree_chain(int nodes, int rpn, int head_last, const topo_tree_node *inter, int rank, topo_tree_node *out);

#endif
