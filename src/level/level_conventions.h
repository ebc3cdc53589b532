#pragma once
// The naming rules of level_conventions.md (loader-internal), shared by both loaders: the native
// one's node walk (scene_walk.cpp) and the page's glTF walk (web_level_loader.cpp), so a level
// means the same thing whichever of them reads it. Names are compared case-insensitively.
#include <string>

namespace ofps::loader {

// "nocollide" / "nocollision" anywhere in the lower-cased name: drawn, never collides.
bool nameIsNoCollide(const std::string& lowerName);

// Unreal's UCX_/UBX_/UCP_/USP_ prefixes, "collider" anywhere, Godot's "-colonly" suffix: collides,
// never drawn.
bool nameIsCollider(const std::string& lowerName);

// 0: not a spawn name; higher wins ("spawn", "PlayerStart", "info_player_start" = 3, "spawn
// point", "player spawn", "info_player_deathmatch" = 2, any other "spawn..."/"playerstart..." =
// 1). Punctuation, case and Blender-style ".001" suffixes are ignored.
int spawnNamePriority(const std::string& name);

}  // namespace ofps::loader
