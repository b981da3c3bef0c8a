/*
 * tp_material.h - the materials file of ttexture: which texture covers
 * which biome, at what size, with what tint.
 *
 * One material a line; blank lines and lines starting with '#' are
 * skipped:
 *
 *	# NAME              PATH            SIZE  [TINT]
 *	grassland           grass.png       4
 *	"temperate desert"  sand.png        6     #e0d0b0
 *	*                   rock.png        8
 *
 * NAME is a biome's name as in the stream's BIOME lines (quoted when it
 * has blanks), or '*' for every biome without a line of its own and for a
 * stream without biomes. PATH is relative to the materials file's
 * directory (unless absolute). SIZE is the world units one texture period
 * covers, > 0. TINT multiplies the texture's colour by #rrggbb / 255.
 * Errors name the file and line: "mat.txt:3: size '0' ...".
 */
#ifndef TP_MATERIAL_H
#define TP_MATERIAL_H

#include "core/tp_err.h"
#include "biome/tp_palette.h"
#include "render/tp_texture.h"

#define TP_MATERIALS_MAX	256

typedef struct tp_material {
	char	name[TP_PALETTE_NAME];	/* a biome's name, or "*" */
	tp_texture tex;
	double	size;			/* world units a period, > 0 */
	float	tint[3];		/* 1, 1, 1 without a tint */
	int	line;			/* of the materials file */
} tp_material;

typedef struct tp_materials {
	char	path[1024];		/* the materials file, for messages */
	int	n;
	tp_material m[TP_MATERIALS_MAX];
	int	any;			/* the '*' material, or -1 */
	int	by_code[TP_PALETTE_CODES];	/* material of a code, or -1 */
} tp_materials;

/* Read the file at path and load every texture it names. */
int	tp_materials_load(tp_materials *ms, const char *path, tp_err *e);
/* Give each class of p its material (its own line, else '*'): a name of
 * the file not in p, or a class with no material while there is no '*',
 * is an error naming it. */
int	tp_materials_bind(tp_materials *ms, const tp_palette *p, tp_err *e);
/* The material of biome code (NaN, out of range or not in the table:
 * '*'), or NULL. */
const tp_material *tp_materials_for(const tp_materials *ms, float code);
void	tp_materials_free(tp_materials *ms);

#endif
