#version 460
#extension GL_EXT_debug_printf : require
// tessellation evaluation: isolines, 2 lines of 1 segment per patch; every
// invocation prints its primitive and tessellation coordinates
layout(isolines, equal_spacing) in;
void main() {
    gl_Position = gl_in[0].gl_Position;
    debugPrintfEXT("tese primitive %d tess coord %.2f, %.2f", gl_PrimitiveID, gl_TessCoord.x, gl_TessCoord.y);
}
